import torch


def names(t):
    fn = t.grad_fn
    if fn is None:
        return None
    return type(fn).__name__, [type(f).__name__ if f is not None else None for f, _ in fn.next_functions]


x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
ops = [
    ("stack", lambda x: torch.stack([x, x * 2], 1)),
    ("repeat(2, 1)", lambda x: x.repeat(2, 1)),
    ("repeat(2, 1, 3)", lambda x: x.repeat(2, 1, 3)),
    ("repeat(1, 1)", lambda x: x.repeat(1, 1)),
    ("repeat(0, 1)", lambda x: x.repeat(0, 1)),
    ("index_add", lambda x: x.index_add(0, torch.tensor([1, 1]), x)),
    ("cat", lambda x: torch.cat([x, x * 2])),
]
for text, op in ops:
    y = op(x)
    g, = torch.autograd.grad((y ** 2).sum(), x, create_graph=True)
    print(text, g.tolist(), names(g))
    if g.requires_grad:
        gg, = torch.autograd.grad((g ** 2).sum(), x)
        print("  ", gg.tolist())
