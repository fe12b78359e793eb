import torch
from torch.func import hessian, jacfwd, jacrev


def diag(v):  # the diagonal matrix of v, as torch.diag(v)
    return torch.eye(len(v)) * v


# torch.func.hessian docs
torch.manual_seed(0)

def f(x):
    return x.sin().sum()

x = torch.randn(5)
hess = hessian(f)(x)
print(hess)
print(torch.allclose(hess, diag(-x.sin())))
print(torch.allclose(hess, jacfwd(jacrev(f))(x)))
print(torch.allclose(hess, jacrev(jacrev(f))(x)))
print(torch.allclose(hess, jacrev(jacfwd(f))(x)))

def g(x, y):
    return (x ** 2 * y).sum() + (y ** 3).sum()

a = torch.tensor([1., 2.])
b = torch.tensor([3., -1.])
print(hessian(g)(a, b))
print(hessian(g, argnums=1)(a, b))
hs = hessian(g, argnums=(0, 1))(a, b)
print(hs[0][1])
print(hs[1][1])
print(hessian(lambda t: t ** 4)(torch.tensor(2.)))
