import torch


def describe(t):
    fn = t.grad_fn
    nexts = None if fn is None else [type(f).__name__ if f is not None else None for f, _ in fn.next_functions]
    return t.tolist(), type(fn).__name__ if fn is not None else None, nexts, t._version


x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
reads = [
    ("x[0]", lambda x: x[0]),
    ("x[:, 1:]", lambda x: x[:, 1:]),
    ("x.narrow(1, 1, 2)", lambda x: x.narrow(1, 1, 2)),
    ("x[..., -1:]", lambda x: x[..., -1:]),
    ("x[[1, 1, 0]]", lambda x: x[[1, 1, 0]]),
    ("x[x > 2]", lambda x: x[x > 2]),
    ("masked_select", lambda x: torch.masked_select(x, x > 2)),
    ("index_select", lambda x: x.index_select(1, torch.tensor([0, 2, 2]))),
]
for text, read in reads:
    y = read(x)
    g, = torch.autograd.grad((y ** 3).sum(), x, create_graph=True)
    print(text, describe(g))
    gg, = torch.autograd.grad((g * g).sum(), x, create_graph=True)
    print("  ", describe(gg))
    inner = gg.grad_fn.next_functions[-1][0]
    print("  ", type(inner).__name__, [type(f).__name__ if f is not None else None for f, _ in inner.next_functions])
    h, = torch.autograd.grad(y.sum(), x)
    print("  first order", describe(h))

# gather's backward scatters into zeros in place: the zeros are an input without a gradient
s = torch.tensor(-1.32, dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad((s.gather(0, torch.zeros((), dtype=torch.long)).cos() ** 2).sum(), s, create_graph=True)
print(describe(g))
y = x.gather(1, torch.tensor([[0, 0], [2, 1]]))
g, = torch.autograd.grad((y ** 3).sum(), x, create_graph=True)
print(describe(g), describe(torch.autograd.grad((g ** 2).sum(), x, create_graph=True)[0]))
