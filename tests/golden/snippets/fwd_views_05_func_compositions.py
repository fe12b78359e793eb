import warnings

import torch
from torch.func import hessian, jacfwd, jacrev, jvp

warnings.filterwarnings("ignore", category=DeprecationWarning)

x = torch.tensor([1.0, 2.0, 3.0, 4.0])


def f(x):
    # views, indexing and joining, then a nonlinearity
    m = x.view(2, 2)
    y = torch.cat([m[0] * m[1], m[:, 0].flip(0), x[torch.tensor([3, 1])]])
    return (y.repeat(2) ** 2).sum()


def g(x):
    # in-place ops inside the function
    out = torch.zeros(3)
    out[0] = x[0] * x[1]
    out[1:].copy_(x[2:] ** 2)
    out.mul_(x[:3])
    return out


def h(x):
    s = torch.stack([x, x.flip(0)], dim=1)
    a, b = s.unbind(1)
    pieces = x.split([1, 3])
    return a * b + pieces[1].sum() + x.masked_fill(x > 2, 0.0) + x.index_select(0, torch.tensor([0, 0, 1, 2]))


print("jvp f:", jvp(f, (x,), (torch.ones(4),)))
print("jacfwd f:", jacfwd(f)(x))
print("jacrev f:", jacrev(f)(x))
print("hessian f:", hessian(f)(x))
print("jacfwd(jacrev) f:", jacfwd(jacrev(f))(x))
print("jvp g:", jvp(g, (x,), (torch.tensor([1.0, 0.0, 0.0, 1.0]),)))
print("jacfwd g:", jacfwd(g)(x))
print("jacrev g:", jacrev(g)(x))
print("hessian g:", hessian(g)(x))
print("jacfwd h:", jacfwd(h)(x))
print("hessian h sum:", hessian(lambda x: (h(x) ** 2).sum())(x))
