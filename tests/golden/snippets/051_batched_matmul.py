import torch

a = torch.arange(12.0).reshape(2, 2, 3).requires_grad_()
b = torch.ones(3, 2)
c = a @ b
print(c)
print(c.grad_fn.name())
c.sum().backward()
print(a.grad)
