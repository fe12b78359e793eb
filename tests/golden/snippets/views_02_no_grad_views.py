# A view taken under no_grad of a tensor that requires grad requires grad, has no history, and
# autograd refuses the in-place writes it cannot follow.
import torch


def name(t):
    try:
        fn = t.grad_fn
    except RuntimeError as e:
        return f"{type(e).__name__}: {e}"
    return None if fn is None else (type(fn).__name__, [None if f is None else type(f).__name__
                                                         for f, _ in fn.next_functions])


leaf = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    u, e, t = leaf[1:], leaf.expand(2, 3), leaf.view(3, 1).t()
    c0, c1 = leaf.chunk(2)
    not_a_view = leaf * 2
for t_ in (u, e, t, c0, not_a_view):
    print(t_.requires_grad, t_.is_leaf, name(t_))

y = u * 2
print(name(y), y.requires_grad)
y.sum().backward()
print(leaf.grad, u.grad)
print(name(u[0:]), u.requires_grad_(False).requires_grad)

for label, write in [("no_grad view", lambda: u.mul_(2)), ("view of it", lambda: u[0:].mul_(2)),
                     ("multi-output", lambda: (leaf * 1).unbind()[0].mul_(2))]:
    try:
        write()
    except RuntimeError as err:
        print(label, err)

# The base is written: a no_grad view cannot be regenerated, reading its history raises.
with torch.no_grad():
    leaf.mul_(2)
print(name(u), name(c0))
try:
    u * 2
except RuntimeError as err:
    print("use", err)

b = leaf * 2
with torch.no_grad():
    w = b[1:]
with torch.no_grad():
    w.add_(1)  # a write under no_grad is fine...
print(name(w))  # ...but the view's history is gone

with torch.inference_mode():
    inf = leaf[:2]
print(inf.requires_grad, name(inf))
try:
    inf.mul_(2)
except RuntimeError as err:
    print(err)

s0, s1 = (leaf * 1).split(2)
b2 = s0._base
b2.mul_(2)
print(name(s0))
