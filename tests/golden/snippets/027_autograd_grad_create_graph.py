import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
dy, = torch.autograd.grad(y, x, create_graph=True)
print(dy)
d2y, = torch.autograd.grad(dy, x, create_graph=True)
print(d2y)
d3y, = torch.autograd.grad(d2y, x)
print(d3y)
print(dy.requires_grad, d3y.requires_grad)
