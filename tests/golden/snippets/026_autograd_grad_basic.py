import torch

x = torch.tensor(3.0, requires_grad=True)
y = torch.tensor(4.0, requires_grad=True)
f = x ** 2 * y + y
grads = torch.autograd.grad(f, [x, y])
print(grads)
print(type(grads).__name__, len(grads))
print(x.grad, y.grad)
dx, = torch.autograd.grad((x * x).sum(), x)
print(dx)
