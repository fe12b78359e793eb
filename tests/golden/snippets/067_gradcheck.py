import torch
from torch.autograd import gradcheck, gradgradcheck

x = torch.tensor([0.5, 1.5, -2.0], dtype=torch.double, requires_grad=True)
w = torch.tensor([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5]], dtype=torch.double, requires_grad=True)
print(gradcheck(torch.sigmoid, (x,)))
print(gradcheck(lambda a, b: (b @ a).tanh(), (x, w), eps=1e-6, atol=1e-4))
print(gradgradcheck(lambda a: (a ** 3).sum(), (x,)))
