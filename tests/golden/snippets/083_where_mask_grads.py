import torch

x = torch.tensor([-2.0, -0.5, 0.5, 2.0], requires_grad=True)
y = torch.where(x > 0, x ** 2, -x)
print(y)
y.sum().backward()
print(x.grad)
mask = (x.detach().abs() < 1).float()
x.grad = None
(x * mask).sum().backward()
print(mask, x.grad)
