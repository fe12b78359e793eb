import torch


def names(g):
    return g.grad_fn.name(), [n[0] and n[0].name() for n in g.grad_fn.next_functions]


def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)


# NaN results: amax/amin give NaN gradients, full max/min send the gradient to the NaN elements
x = torch.tensor([[1., 3., 3.], [float('nan'), 2., 0.5]], requires_grad=True)
for f in (lambda t: t.amax(1), lambda t: t.amin(0), lambda t: t.max(), lambda t: t[0].max(), lambda t: t.min(),
          lambda t: t.mean(), lambda t: t.mean(1), lambda t: t.prod(), lambda t: t.prod(1)):
    y = f(x)
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    print(g, names(g))
x0 = torch.tensor(2.0, requires_grad=True)
for f in (lambda t: t.mean(), lambda t: t.amax(), lambda t: t.max(), lambda t: t.prod()):
    g, = torch.autograd.grad(f(x0) ** 2, x0, create_graph=True)
    print(g, names(g))
# empty reduced dims
e = torch.zeros(2, 0, requires_grad=True)
for f in (lambda: e.min(1), lambda: e.amax(1), lambda: e.argmax(1), lambda: e.argmin(-1), lambda: e.amax(0), lambda: e.mean(1)):
    attempt(f)
