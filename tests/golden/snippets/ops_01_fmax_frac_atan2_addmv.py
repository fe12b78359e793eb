# torch.fmax/fmin (NaN loses to a number), frac, atan2 and addmv (beta/alpha): values, graph names,
# gradients, tangents and PyTorch's errors.
import torch

fwAD = torch.autograd.forward_ad
nan = float('nan')
a = torch.tensor([1., nan, 3., nan, 2., -1.], requires_grad=True)
b = torch.tensor([nan, 2., 1., nan, 2., 4.], requires_grad=True)
for f in (torch.fmax, torch.fmin):
    o = f(a, b)
    print(f.__name__, o, o.grad_fn.name())
    ga, gb = torch.autograd.grad(o.sum(), (a, b))
    print(" ", ga, gb)
print(torch.fmax(torch.tensor([1, 5]), torch.tensor([3, 2])), torch.fmin(torch.tensor([1, 5]), torch.tensor([3., 2.])))
print(a.fmax(torch.tensor(0.)), b.fmin(torch.tensor([[0.], [5.]])))
x = torch.tensor([[0.5, -1.5, 2.0]], requires_grad=True)
y = torch.tensor([[1.0], [-2.0]], requires_grad=True)
g = torch.autograd.grad(torch.fmax(x, y).pow(2).sum(), (x, y), create_graph=True)
print([(t, t.grad_fn.name()) for t in g])

f = torch.tensor([1.5, -2.25, 3., -0.0, float('inf')], requires_grad=True)
o = torch.frac(f)
print(o, o.grad_fn.name())
o.sum().backward()
print(f.grad)
print(torch.tensor([[5.75, -0.5]], dtype=torch.float64).frac())

p = torch.tensor([1., -1., 0., -2.], requires_grad=True)
q = torch.tensor([0., 2., -3., -2.], requires_grad=True)
o = torch.atan2(p, q)
print(o, o.grad_fn.name(), torch.arctan2(p, q).grad_fn.name())
gp, gq = torch.autograd.grad(o.sum(), (p, q), create_graph=True)
print(gp, gq)
print(torch.atan2(torch.tensor([1, -1]), torch.tensor([0, 2])), torch.atan2(torch.tensor([[1.]]), torch.tensor([2., -2.])))

s = torch.tensor([0.5, nan], requires_grad=True)
m = torch.tensor([[1., 2., 3.], [0.5, -1., 2.]], requires_grad=True)
v = torch.tensor([0.1, -0.3, 0.5], requires_grad=True)
for kw in [dict(), dict(beta=2), dict(alpha=3), dict(beta=0), dict(beta=0.5, alpha=-2)]:
    o = torch.addmv(s, m, v, **kw)
    print(kw, o, o.grad_fn.name())
    gs = torch.autograd.grad(torch.addmv(s, m, v, **kw).pow(2).sum(), [s, m, v], create_graph=True)
    print(" ", [(t, t.grad_fn.name()) for t in gs])
print(torch.addmv(torch.tensor(1.), m, v), torch.tensor([1., 2.]).addmv(m, v, alpha=2))
print(torch.addmv(torch.tensor([1, 2]), torch.ones(2, 3, dtype=torch.long), torch.ones(3, dtype=torch.long), beta=2, alpha=3))

with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1.5, -2.0, 0.5]), torch.tensor([1.0, 2.0, -1.0]))
    e = fwAD.make_dual(torch.tensor([1.0, -3.0, 0.5]), torch.tensor([0.5, 0.25, 4.0]))
    for name, out in [("fmax", torch.fmax(d, e)), ("fmin", torch.fmin(d, e)), ("fmax1", torch.fmax(d, torch.ones(3))),
                      ("atan2", torch.atan2(d, e)), ("atan2_1", torch.atan2(torch.ones(3), e)), ("frac", d.frac()),
                      ("addmv", torch.addmv(d, m.detach().t() @ m.detach(), e, beta=2))]:
        print(name, fwAD.unpack_dual(out).tangent)
    print(fwAD.unpack_dual(d.frac()).tangent is fwAD.unpack_dual(d).tangent)

for fn in (lambda: torch.fmax(a, 2.0), lambda: torch.atan2(p, 1.0), lambda: torch.frac(torch.tensor([1, 2])),
           lambda: torch.addmv(torch.ones(2), torch.ones(2, 3), torch.ones(4)),
           lambda: torch.addmv(torch.ones(3), torch.ones(2, 3), torch.ones(3)),
           lambda: torch.addmv(torch.ones(2, 2), torch.ones(2, 3), torch.ones(3)),
           lambda: torch.addmv(torch.ones(2), torch.ones(3), torch.ones(3)),
           lambda: torch.addmv(torch.tensor(1.), torch.ones(2, 3), torch.ones(4)),
           lambda: torch.addmv(torch.ones(2), torch.ones(2, 3, dtype=torch.float64), torch.ones(3)),
           lambda: torch.fmax(torch.ones(2), torch.ones(3))):
    try:
        fn()
    except Exception as err:
        print(type(err).__name__, err)
