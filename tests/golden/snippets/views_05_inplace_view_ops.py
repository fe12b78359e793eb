# In-place view ops (t_, transpose_, unsqueeze_, squeeze_) change a tensor's shape where it is;
# views of it keep reading the same memory and are regenerated, as are views of a tensor whose
# detach() was written.
import torch


def name(t):
    fn = t.grad_fn
    return None if fn is None else (type(fn).__name__, [None if f is None else type(f).__name__
                                                         for f, _ in fn.next_functions])


leaf = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
for op in ["t_()", "transpose_(0, 1)", "unsqueeze_(1)", "squeeze_()", "unsqueeze_(0)"]:
    b = leaf * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    row, col = b[1], b[:, 2]
    out = eval("b." + op)
    print(op, out is b, tuple(b.shape), b.stride(), b._version, name(b), name(row))
    (g,) = torch.autograd.grad((row * row).sum() + (col * b.sum()).sum(), leaf)
    print("  ", g.tolist())

b = leaf * 2
v = b[0]
v.unsqueeze_(0)
print(tuple(v.shape), name(v), v._base is b)
v.mul_(3)
print(name(v), name(b))
(g,) = torch.autograd.grad(b.sum(), leaf)
print(g.tolist())

# A write through detach() bumps the shared version: views see it.
b = leaf * 1
s, r = b.squeeze(), b[1]
b.detach().add_(1)
print(name(s), name(r), b._version)
for bad in ["leaf.unsqueeze_(0)", "leaf[0].t_()", "leaf.detach().unsqueeze_(0).shape"]:
    try:
        print(bad, eval(bad))
    except RuntimeError as err:
        print(bad, err)
