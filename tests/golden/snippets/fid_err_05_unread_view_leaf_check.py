import torch


def attempt(name, f):
    try:
        f()
        print(name, "ok")
    except Exception as e:
        print(name, type(e).__name__, e)


def fresh():
    # v is a view taken while its base needed no grad; the base then gets history in place.
    base = torch.tensor([[-1.99, -2.26, -1.46], [0.53, 2.8, 2.13]], dtype=torch.float64)
    v = base[..., -1:]
    base.add_(torch.tensor(-0.72, requires_grad=True))
    return base, v


# Until its grad_fn is read, PyTorch's in-place check still sees the view as a leaf.
_, v = fresh()
attempt("neg_", lambda: v.neg_())
_, v = fresh()
attempt("mul_", lambda: v.mul_(2))
_, v = fresh()
print(v.is_leaf)
attempt("after is_leaf", lambda: v.neg_())
_, v = fresh()
print(v.requires_grad)
attempt("after requires_grad", lambda: v.neg_())
_, v = fresh()
y = v * 2
attempt("after an op", lambda: v.neg_())
# A write through a sibling view regenerates this one lazily too.
w = torch.ones(3, requires_grad=True)
b = torch.zeros(2, 3)
v, u = b[0], b[1]
u.add_(w)
attempt("sibling", lambda: v.mul_(2))
# A view written in place with grad has its grad_fn read at once.
b = torch.zeros(2, 3)
v = b[0]
v.mul_(w)
attempt("written view", lambda: v.mul_(2))
print(v.grad_fn.name(), b.grad_fn.name())
# Reading .grad does not regenerate the view either: no non-leaf warning until grad_fn is read.
b = torch.tensor([1.0, 2.0], dtype=torch.float64)
v = b.squeeze(-1)
b.div_(torch.tensor(2.32, requires_grad=True))
print(v.grad)
print(v.is_leaf)
print(v.grad)
