import torch
from torch.autograd.functional import jacobian, hessian

def f(x):
    return x ** 2 + x.sum()

def g(x):
    return (x[0] ** 2 * x[1] + x[1] ** 3)

x = torch.tensor([1.0, 2.0, 3.0])
print(jacobian(f, x))
print(hessian(g, torch.tensor([1.0, 2.0])))
a, b = jacobian(lambda u, v: u * v, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
print(a)
print(b)
