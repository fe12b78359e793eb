# is_leaf / requires_grad of torch.func results: jacrev joins one input's rows of every output
# (one vmapped vjp over the whole basis, split afterwards), so an identity block is linked when
# another block is, and another output's NaN derivative reaches it; no_grad views of a plain input
import torch
from torch.func import jacrev, jacfwd, hessian, vjp, grad, jvp, vmap

v = torch.tensor([0.6, 0.4], requires_grad=True)
c = torch.tensor([0.6, 0.4])


def flags(name, r):
    if isinstance(r, tuple):
        for k, x in enumerate(r):
            flags(f"{name}[{k}]", x)
    else:
        print(name, r.is_leaf, r.requires_grad, type(r.grad_fn).__name__ if r.grad_fn else None)


flags("jacrev (tanh, id)", jacrev(lambda x: (x.tanh(), x))(v))
flags("jacrev (tanh, id) plain", jacrev(lambda x: (x.tanh(), x))(c))
flags("jacrev id", jacrev(lambda x: x)(v))
flags("jacrev sin", jacrev(lambda x: x.sin())(v))
flags("jacfwd sin", jacfwd(lambda x: x.sin())(v))
flags("jacfwd x*x", jacfwd(lambda x: x * x)(v))
flags("hessian sin", hessian(lambda x: x.sin().sum())(v))
flags("hessian sum", hessian(lambda x: x.sum())(v))
flags("jacfwd(jacfwd)", jacfwd(jacfwd(lambda x: x * x))(v))
flags("vmap x*2", vmap(lambda x: x * 2)(v))


def no_grad_view(x):
    with torch.no_grad():
        return x.split(1, 0)[0]


flags("vjp no_grad view", vjp(no_grad_view, c)[0])
flags("vjp no_grad view of rg", vjp(no_grad_view, v)[0])
flags("grad aux no_grad view", grad(lambda x: (x.sum(), no_grad_view(x)), has_aux=True)(c)[1])
flags("jvp no_grad view", jvp(no_grad_view, (c,), (c,)))
x = torch.tensor([-1.09, -2.54, 0.87, 0.22]).log()
print(jacrev(lambda a, b: (a * a + b, a))(x, torch.ones(4)))
s = torch.tensor(-1.44, requires_grad=True)
flags("hessian prod 0-dim", hessian(lambda x: x.prod())(s))
flags("jacfwd var 0-dim", jacfwd(lambda x: x.var())(s))
flags("jacfwd (prod, id) 0-dim", jacfwd(lambda x: (torch.prod(x, 0), x))(s))
w = torch.tensor([[[1.0], [-1.27], [0.13]]], dtype=torch.float64, requires_grad=True)
r = vmap(lambda x: x, in_dims=1, out_dims=1)(w)
print(r is w, r.is_leaf)
r = vmap(lambda x: x, in_dims=-3)(w)
print(r is w, vmap(lambda x: x, in_dims=1, out_dims=0)(w).is_leaf)
r = vmap(lambda x, y: x.type_as(y), in_dims=(0, 0), out_dims=-1)(torch.tensor([2.46], dtype=torch.float64), w)
print(r.is_leaf, r.requires_grad)
plain = torch.tensor([[1.61, 1.43, 2.14], [2.44, 1.91, 2.98]], dtype=torch.float64)


def aux_view(x):
    y = x + plain
    with torch.no_grad():
        z = y.view_as(y)
    return z.sum(), z


flags("grad aux no_grad view of a non-leaf", grad(aux_view, has_aux=True)(plain)[1])
flags("grad aux no_grad view, linked input", grad(aux_view, has_aux=True)(plain.clone().requires_grad_())[1])
m = torch.tensor([[-0.64, 1.12], [2.56, 2.86], [-2.92, 0.91]], dtype=torch.float64, requires_grad=True).min(dim=1)[0]


def twice(t):
    y = t @ t
    return y.double(), y  # the same tensor twice (double() of a double is itself): each block once


print(jacrev(twice)(m))
s1 = torch.ones(4, requires_grad=True).std()
s2 = s1.detach().requires_grad_()


def no_grad_view_of_other(a, b):
    with torch.no_grad():
        return a.flatten()  # requires grad through its base outside, not at jacrev's level


flags("jacrev of a no_grad view of another arg", jacrev(no_grad_view_of_other, argnums=1)(s1, s2))
