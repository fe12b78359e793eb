# A view sees in-place writes to its base: its history is regenerated (AsStridedBackward0) from the
# base's new one, whether the write was recorded or made under no_grad.
import torch


def name(t):
    fn = t.grad_fn
    return None if fn is None else (type(fn).__name__, [None if f is None else type(f).__name__
                                                         for f, _ in fn.next_functions])


# Issue 15: the expanded view follows v1.mul_(v0); the gradient is 8 * v0 ** 3.
v0 = torch.tensor([3.0, 0.25, 1.0], dtype=torch.float64, requires_grad=True)
v1 = torch.maximum(v0, v0)
v2 = v1.expand(2, 3)
v1.mul_(v0)
v3 = torch.relu(v2)
print(name(v2), name(v3))
print(torch.autograd.grad((v3 * v3).sum(), v0))

leaf = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
for make in ["b.view(6)", "b[1]", "b.t()", "b[:, 1:]", "b.unsqueeze(0)", "b.expand(2, 2, 3)", "b.view(6)[::2]"]:
    b = leaf * 1
    v = eval(make)
    b.mul_(2)
    (g,) = torch.autograd.grad((v * v).sum(), leaf)
    print(make, name(v), g.tolist())
    b = leaf * 1
    v = eval(make)
    with torch.no_grad():
        b.add_(1)
    (g,) = torch.autograd.grad((v * v).sum(), leaf)
    print("  no_grad write:", name(v), g.tolist())

# A view of a leaf, the leaf written under no_grad.
w = leaf.view(6)
with torch.no_grad():
    leaf.mul_(1)
print(name(w), name(w.norm()))

# A write through one view shows in another view of the same base.
b = leaf * 1
r0, c1 = b[0], b[:, 1]
r0.mul_(10)
print(name(c1), name(b))
(g,) = torch.autograd.grad((c1 * c1).sum(), leaf)
print(g.tolist())

# Writing into an expanded view: fill_ and zero_ may, other in-place ops refuse the overlap.
base = torch.tensor([1.0, 2.0, 3.0], requires_grad=True) * 1
e = base.expand(2, 3)
e.zero_()
print(base, name(base), name(e))
e.fill_(7.0)
print(base.tolist(), name(base))
try:
    e.add_(1)
except RuntimeError as err:
    print(err)
