# Logistic regression on two Gaussian blobs: sigmoid + BCELoss + Adam
import torch
import torch.nn as nn

torch.manual_seed(1)
n = 100
x0 = torch.randn(n, 2) + torch.tensor([2.0, 2.0])
x1 = torch.randn(n, 2) - torch.tensor([2.0, 2.0])
X = torch.cat([x0, x1])
y = torch.cat([torch.zeros(n), torch.ones(n)]).unsqueeze(1)


class LogisticRegression(nn.Module):
    def __init__(self, in_features):
        super().__init__()
        self.linear = nn.Linear(in_features, 1)

    def forward(self, x):
        return torch.sigmoid(self.linear(x))


model = LogisticRegression(2)
criterion = nn.BCELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

for epoch in range(100):
    y_pred = model(X)
    loss = criterion(y_pred, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 10 == 0:
        print(f'Epoch [{epoch + 1}/100], Loss: {loss.item():.4f}')

with torch.no_grad():
    predicted = (model(X) >= 0.5).float()
    accuracy = (predicted == y).sum() / y.shape[0]
print(f'accuracy: {accuracy.item():.4f}')
print(model.linear.weight, model.linear.bias)
