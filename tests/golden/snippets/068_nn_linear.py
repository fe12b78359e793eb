import torch
import torch.nn as nn

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.5, 0.0, -0.5]]))
    lin.bias.copy_(torch.tensor([0.0, 1.0]))
print(lin)
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]])
y = lin(x)
print(y)
y.sum().backward()
print(lin.weight.grad)
print(lin.bias.grad)
print([name for name, _ in lin.named_parameters()])
print(lin.weight.shape, lin.bias.requires_grad)
