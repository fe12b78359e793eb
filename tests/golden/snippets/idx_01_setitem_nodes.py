import torch


def names(t):
    fn = t.grad_fn
    return type(fn).__name__, [type(f).__name__ if f is not None else None for f, _ in fn.next_functions]


x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
w = torch.tensor([7.0, 8.0, 9.0], requires_grad=True)
s = torch.tensor(7.0, requires_grad=True)
writes = [
    ("y[...] = w", lambda y: y.__setitem__(Ellipsis, w)),  # expanded copy_ on y itself
    ("y[:] = 3.0", lambda y: y.__setitem__(slice(None), 3.0)),  # fill_ with a 0-dim value
    ("y[0] = w", lambda y: y.__setitem__(0, w)),  # copy_ into a view: CopySlices
    ("y[1:] = 3.0", lambda y: y.__setitem__(slice(1, None), 3.0)),
    ("y[0, 1] = 3.0", lambda y: y.__setitem__((0, 1), 3.0)),
    ("y[:, 1:] = s", lambda y: y.__setitem__((slice(None), slice(1, None)), s)),
    ("y[1, 1:] = w[:1]", lambda y: y.__setitem__((1, slice(1, None)), w[:1])),
    ("y[0] = x[1:]", lambda y: y.__setitem__(0, x[1:])),
    ("y[[0, 1], 1] = w[:2]", lambda y: y.__setitem__(([0, 1], 1), w[:2])),
    ("y[0, [0, 2]] = w[1:]", lambda y: y.__setitem__((0, [0, 2]), w[1:])),
    ("y[[1]] = w.view(1, 1, 3)", lambda y: y.__setitem__([1], w.view(1, 1, 3))),
    ("y[y > 3] = 0.5", lambda y: y.__setitem__(y > 3, 0.5)),
    ("y[True] = 2.0", lambda y: y.__setitem__(True, 2.0)),
    ("y[0, True] = s", lambda y: y.__setitem__((0, True), s)),
]
for text, write in writes:
    y = x * 1
    write(y)
    print(text, names(y), y.tolist(), y._version)
    gx, gw, gs = torch.autograd.grad((y * y).sum(), (x, w, s), allow_unused=True, materialize_grads=True)
    print("  grads", gx.tolist(), gw.tolist(), gs.tolist())

y = x * 1
y[False] = 5.0
print("y[False] = 5.0", names(y), y._version)

z = torch.tensor(-1.9, requires_grad=True) * 1
z[...] = z.detach().unsqueeze(-1)
print(names(z), z.tolist())

v = x * 1
v.fill_(s)
print(names(v))
try:
    v.fill_(w)
except RuntimeError as e:
    print(type(e).__name__, e)
