# "A Gentle Introduction to torch.autograd": gradients, exclusion from the DAG, freezing
import torch
from torch import nn, optim

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
Q = 3 * a ** 3 - b ** 2
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a ** 2 == a.grad)
print(-2 * b == b.grad)

torch.manual_seed(0)
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
a = x + y
print(f"Does `a` require gradients?: {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")



# a small stand-in for resnet18: freeze everything, then replace the classifier
class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(8, 6), nn.ReLU())
        self.fc = nn.Linear(6, 3)

    def forward(self, x):
        return self.fc(self.features(x))


model = TinyNet()
for param in model.parameters():
    param.requires_grad = False
model.fc = nn.Linear(6, 10)
print([(name, p.requires_grad) for name, p in model.named_parameters()])
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
data = torch.rand(1, 8)
prediction = model(data)
loss = prediction.sum()
loss.backward()
print(model.features[0].weight.grad, model.fc.bias.grad)
optimizer.step()
print(model.fc.bias)
