# "Optimizing Model Parameters" tutorial, with random data instead of FashionMNIST
import torch
from torch import nn

torch.manual_seed(0)


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(8 * 8, 32),
            nn.ReLU(),
            nn.Linear(32, 32),
            nn.ReLU(),
            nn.Linear(32, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork()
learning_rate = 1e-1
batch_size = 16

train_X = torch.rand(160, 8, 8)
train_y = torch.randint(0, 10, (160,))
test_X = torch.rand(32, 8, 8)
test_y = torch.randint(0, 10, (32,))

loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)


def train_loop(X_all, y_all, model, loss_fn, optimizer):
    size = len(X_all)
    model.train()
    for batch in range(size // batch_size):
        X = X_all[batch * batch_size:(batch + 1) * batch_size]
        y = y_all[batch * batch_size:(batch + 1) * batch_size]
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 5 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(X, y, model, loss_fn):
    model.eval()
    with torch.no_grad():
        pred = model(X)
        test_loss = loss_fn(pred, y).item()
        correct = (pred.argmax(1) == y).type(torch.float).sum().item()
    correct /= len(X)
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


epochs = 3
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_X, train_y, model, loss_fn, optimizer)
    test_loop(test_X, test_y, model, loss_fn)
print("Done!")
