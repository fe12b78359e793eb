# A leaf made with requires_grad=True inside a transformed function belongs to that transform:
# inside, it records history as usual; the transform's results come out cut from it (functorch
# made it at the transform's level). Under vmap alone it is an ordinary outer leaf.
import torch
from torch.func import grad, vmap, jacrev, jacfwd, vjp, jvp


def info(name, t):
    print(name, t.is_leaf, t.requires_grad, type(t.grad_fn).__name__ if t.grad_fn is not None else None)


def f(x):
    w = torch.ones(3, requires_grad=True)
    info("w", w)
    z = w * 2
    info("z", z)
    return (x * w).sum() + z.sum()


x = torch.tensor([1., 2., 3.])
r = grad(f)(x)
info("grad", r)
print(r)
info("jacrev", jacrev(f)(x))
info("jacfwd", jacfwd(f)(x))
info("vjp", vjp(f, x)[0])
out, t = jvp(f, (x,), (torch.ones(3),))
info("jvp out", out)
info("jvp tangent", t)
info("vmap", vmap(f)(torch.ones(2, 3)))


def g(x):
    w = torch.tensor(2., requires_grad=True)
    p = torch.nn.Parameter(torch.ones(3))
    return x * w * p, w


(a, b), _ = vjp(g, x)
info("vjp out", a)
info("vjp leaf", b)
a, b = vmap(g)(torch.ones(2, 3))
info("vmap out", a)
info("vmap leaf", b)
aux = grad(lambda x: (g(x)[0].sum(), g(x)[1]), has_aux=True)(x)[1]
info("aux leaf", aux)
# In-place writes into a transform's input: a leaf there, even when the caller's tensor is a view
v1 = torch.full((2, 3), 1.5, requires_grad=True)


def fill(x0):
    x1 = x0.float()  # the same tensor
    x1.fill_(0)
    return x1.sum()


def write_view(x0):
    x2 = x0[::2]
    x2[0] = 1e-3  # a view of the input: checked before the expanded primal's overlap
    return x2.sum()


for name, call in [("jacrev view input", lambda: jacrev(fill)(v1.reshape(6, 1))), ("grad", lambda: grad(fill)(v1)),
                   ("vmap(grad)", lambda: vmap(grad(fill))(v1)), ("jacfwd view write", lambda: jacfwd(write_view)(v1))]:
    try:
        call()
    except RuntimeError as e:
        print(name, type(e).__name__, e)
