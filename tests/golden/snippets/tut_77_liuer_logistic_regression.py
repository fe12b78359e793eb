# 《PyTorch深度学习实践》（刘二大人）第 6 讲：逻辑斯蒂回归，BCELoss(reduction='sum')
import torch

torch.manual_seed(1)
x_data = torch.Tensor([[1.0], [2.0], [3.0]])
y_data = torch.Tensor([[0], [0], [1]])


class LogisticRegressionModel(torch.nn.Module):
    def __init__(self):
        super(LogisticRegressionModel, self).__init__()
        self.linear = torch.nn.Linear(1, 1)

    def forward(self, x):
        y_pred = torch.sigmoid(self.linear(x))
        return y_pred


model = LogisticRegressionModel()
criterion = torch.nn.BCELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

for epoch in range(1000):
    y_pred = model(x_data)
    loss = criterion(y_pred, y_data)
    if epoch % 100 == 0:
        print(epoch, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

print('w =', model.linear.weight.item())
print('b =', model.linear.bias.item())
x = torch.linspace(0, 10, 5).view((5, 1))
print(model(x))
print(torch.nn.functional.binary_cross_entropy(model(x_data), y_data, reduction='none'))
