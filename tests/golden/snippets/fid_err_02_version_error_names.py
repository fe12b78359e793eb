import torch


def attempt(name, f):
    try:
        f()
        print(name, "ok")
    except Exception as e:
        print(name, type(e).__name__, e)


def written_view(how):
    # exp_ on a view saves its output; a later write through another view makes it stale. The
    # error names the view's regenerated node (AsStrided) while that node lives, else Exp.
    x = torch.tensor([[1.5, -0.5], [0.25, 2.0]], dtype=torch.float64, requires_grad=True)
    base = x * 1
    v = base[0]
    v.exp_()
    if how == "used before":
        keep.append(v * 2)
    base.view(-1).mul_(2)
    if how == "read again":
        print(v.grad_fn.name())
    if how != "deleted":
        keep.append(v)
    return base.sum()


keep = []
for how in ("untouched", "read again", "deleted", "used before"):
    attempt(how, lambda: written_view(how).backward())
    keep.clear()

# The saved inputs are unpacked in name order, then the saved outputs: both written here, the
# error names "other" (b) before "self" (a).
a = torch.tensor([1.5, 2.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([1.0, 3.0], requires_grad=True)
for op in (torch.minimum, torch.pow, torch.div):
    y = op(a, b)
    with torch.no_grad():
        a.add_(1)
        b.add_(1)
    attempt(op.__name__, lambda: y.sum().backward())
y = a.pow(2).exp()
with torch.no_grad():
    y.add_(1)
attempt("exp output", lambda: y.sum().backward())

# A bool tensor is named by its C++ type, not its legacy Python one.
m = torch.tensor([[True, False, True]])
z = m.t() * torch.tensor(-1.25, requires_grad=True)
m[0, 1] = True
attempt("bool", lambda: z.sum().backward())
