import torch


def names(g):
    return g.grad_fn.name(), [n[0] and n[0].name() for n in g.grad_fn.next_functions]


def attempt(f):
    try:
        r = f()
        print(r.dtype, tuple(r.shape), r)
    except Exception as e:
        print(type(e).__name__, e)


# softmax/log_softmax backward is a primitive with its own double backward
x = torch.tensor([[1., 3., 3.], [-1., 2., 0.5]], dtype=torch.float64, requires_grad=True)
w = torch.tensor([[0.5, -1., 2.], [1., 1., -3.]], dtype=torch.float64)
for f in (lambda t: t.softmax(1), lambda t: t.log_softmax(0), lambda t: t.logsumexp(1), lambda t: t.logsumexp(0, keepdim=True),
          lambda t: t.sum(), lambda t: t.norm(), lambda t: t.norm(1, dim=1), lambda t: t.norm(float('inf')), lambda t: t.norm(3, dim=0)):
    y = f(x)
    g, = torch.autograd.grad((y * y * (w if y.shape == w.shape else 1)).sum(), x, create_graph=True)
    print(g, names(g))
    print(torch.autograd.grad((g * w).sum(), x)[0].round(decimals=6) + 0.0)
g, = torch.autograd.grad((x.abs() * w).sum(), x, create_graph=True)
print(names(g))
# empty dims and integer inputs
e = torch.zeros(2, 0, requires_grad=True)
for f in (lambda: e.softmax(1), lambda: e.log_softmax(1), lambda: e.logsumexp(1), lambda: torch.zeros(0).logsumexp(0),
          lambda: torch.tensor([[1, 2]]).softmax(0), lambda: torch.tensor([[1, 2]]).softmax(1),
          lambda: torch.tensor([[1, 2]]).log_softmax(0), lambda: torch.tensor(2).softmax(0),
          lambda: torch.tensor([[True]]).log_softmax(1), lambda: torch.tensor([[1, 2]]).softmax(1, dtype=torch.float64),
          lambda: torch.tensor([[1, 2]]).logsumexp(1)):
    attempt(f)
y = e.logsumexp(1)
y.sum().backward()
print(e.grad)
