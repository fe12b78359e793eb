import torch
from torch.autograd.functional import vjp, jvp, hvp, vhp

def f(x):
    return x ** 3

x = torch.tensor([1.0, 2.0])
v = torch.tensor([1.0, 0.5])
print(vjp(f, x, v))
print(jvp(f, x, v))
print(hvp(lambda t: (t ** 3).sum(), x, v))
print(vhp(lambda t: (t ** 3).sum(), x, v))
