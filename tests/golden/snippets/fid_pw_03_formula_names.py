import torch


def names(g):
    return g.grad_fn.name(), [n[0] and n[0].name() for n in g.grad_fn.next_functions]


# double-backward graphs as ATen's formulas build them
v = torch.ones(1, requires_grad=True)
for f in (lambda t: 1 / t, lambda t: t.sqrt(), lambda t: torch.log1p(t), lambda t: t.reciprocal(), lambda t: t ** 3):
    y = f(v)
    g, = torch.autograd.grad((y * y).sum(), v, create_graph=True)
    print(g, names(g))
s = torch.tensor(-0.04, dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad((s.expand(2, 3) ** 2).sum(), s, create_graph=True)
print(g, names(g))
z = torch.tensor([[-1.36, 0.0, -1.336], [1.849, 0.752, 1.129]], dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad((z.prod(1, keepdim=True) ** 2).sum(), z, create_graph=True)
print(g, names(g)[0], names(g)[1][0])
# three-input ops are one node each
a = torch.tensor([1.0, 2.0, -1.0], requires_grad=True)
b = torch.tensor([0.5, -2.0, 3.0], requires_grad=True)
c = torch.tensor([2.0, 0.25, 1.0], requires_grad=True)
for f in (lambda: a.addcmul(b, b, value=0.5), lambda: torch.addcmul(a, b, c), lambda: a.addcdiv(b, c, value=2),
          lambda: a.lerp(b, 0.25), lambda: a.lerp(b, 0.75), lambda: torch.lerp(a, b, c)):
    y = f()
    print(y, names(y))
    gs = torch.autograd.grad((y * y).sum(), [a, b, c], create_graph=True, allow_unused=True)
    print([(g, g.grad_fn.name()) if g is not None else None for g in gs])
# cumsum's dtype argument
print(torch.tensor([1, 2, 3]).cumsum(0, dtype=torch.float64), torch.tensor([1.5, 2.5]).cumsum(0, dtype=torch.int64))
