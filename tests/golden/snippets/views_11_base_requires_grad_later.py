# A view requires grad while its base does, even when the base got requires_grad_() after the view
# was taken: ops on it record a node with no edge for it (it has no history and no accumulator of
# its own, unless the view itself was given requires_grad_()). Writes through any tensor sharing the
# version counter (a detach() included) regenerate the views as AsStridedBackward0.
import torch


def names(t):
    fn = t.grad_fn
    nxt = None if fn is None else [None if f is None else type(f).__name__ for f, _ in fn.next_functions]
    return (None if fn is None else type(fn).__name__), nxt, t.is_leaf, t.requires_grad


a = torch.tensor([[-2.88, 1.56, 0.98], [2.81, 0.0, -1.0]])
e = a.expand(2, 2, 3)
s = a[1, 0]
a.requires_grad_()
print(names(e), names(e.floor()), names(s.reshape(1, -1, 1)), names(e - a))
a.requires_grad_(False)
print(names(e), names(e.floor()))
x = torch.tensor([[0.32], [2.15], [-0.64]], requires_grad=True)
with torch.no_grad():
    v = x.squeeze(-1)
print(names(v[torch.tensor([2])]))
v.requires_grad_()
print(names(v[torch.tensor([2])]), names(v[..., 0]))
(v[0] * 3).backward()
print(v.grad, x.grad)
w = torch.tensor([[2.84, 0.76], [0.0, 0.0]], requires_grad=True)
d = w.detach()
n = d.narrow(0, 1, 1)
n[0].add_(w[w > 0])
print(names(n), names(d), names(w))
c = torch.tensor([-1.5, 0.5, -1.64], dtype=torch.float64)
cd = c.detach()
cd.requires_grad_()
u = cd[None]
with torch.no_grad():
    cd[0] = 2.0
print(names(u))
b = torch.ones(3)
vb = b[:2]
with torch.no_grad():
    b.mul_(2)
print(names(vb))
b.requires_grad_()
print(names(vb))
