import torch
from torch.func import vjp, grad

# torch.func.vjp docs examples
torch.manual_seed(0)
x = torch.randn([5])
f = lambda x: x.sin().sum()
(_, vjpfunc) = vjp(f, x)
g = vjpfunc(torch.tensor(1.0))[0]
print(g)
print(torch.allclose(g, grad(f)(x)))

x = torch.randn([5])
f = lambda x: (x.sin(), x.cos())
(out, vjpfunc) = vjp(f, x)
vjps = vjpfunc((torch.ones([5]), torch.ones([5])))
print(out)
print(vjps)
print(torch.allclose(vjps[0], x.cos() + -x.sin()))

x = torch.randn([5])
f = lambda x: {"first": x.sin(), "second": x.cos()}
(_, vjpfunc) = vjp(f, x)
cotangents = {"first": torch.ones([5]), "second": torch.ones([5])}
vjps = vjpfunc(cotangents)
print(torch.allclose(vjps[0], x.cos() + -x.sin()))

x = torch.randn([5])
def f(x, scale=4.):
    return x * scale
(_, vjpfunc) = vjp(f, x)
vjps = vjpfunc(torch.ones_like(x))
print(vjps)
print(torch.allclose(vjps[0], torch.full(x.shape, 4.0)))
