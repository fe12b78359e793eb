# vmap: a no-op squeeze is still a new view, masked_select with an unbatched mask, in-place ops
# PyTorch runs through its slow fallback (with its warning), jvp's primal outputs are aliases
import warnings
import torch
from torch.func import vmap, jvp
v = torch.tensor([[1., -2., 3.], [-4., 5., -6.]], requires_grad=True)
r = vmap(lambda x: x.squeeze())(v)
print(r is v, r.is_leaf, r.requires_grad)
m = torch.tensor([True, False, True])
r = vmap(lambda x: torch.masked_select(x, m))(v)
print(r, r.shape)
print(vmap(lambda x: x.masked_select(torch.tensor([[True, False]])), in_dims=1)(v))
try:
    vmap(torch.masked_select)(v, v > 0)
except RuntimeError as e:
    print(type(e).__name__, e)
for name, f in [("clamp_", lambda a: a.clamp_(-1, 1)), ("clamp_ tensor", lambda a: a.clamp_(torch.tensor(-1.))),
                ("clamp_min_", lambda a: a.clamp_min_(0.)), ("addcmul_", lambda a: a.addcmul_(a, a)),
                ("addcdiv_", lambda a: a.addcdiv_(a, a + 10)), ("lerp_", lambda a: a.lerp_(a * 2, 0.5)),
                ("lerp_ tensor", lambda a: a.lerp_(a * 2, torch.tensor(0.5))), ("pow_", lambda a: a.pow_(2)),
                ("pow_ tensor", lambda a: a.pow_(torch.tensor(2.))), ("mul_", lambda a: a.mul_(a))]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = vmap(lambda x: f(x.clone()), chunk_size=1)(v.detach())
    print(name, out.tolist(), [str(w.message) for w in caught])
c = torch.tensor(0.5, requires_grad=True)
def f(x):
    with torch.no_grad():
        return x.unsqueeze(0).expand(3)
p, t = jvp(f, (c,), (torch.tensor(1.),))
print(p, p.is_leaf, p.requires_grad, t)
p, t = jvp(lambda x: x * 2, (c,), (torch.tensor(1.),))
print(p.is_leaf, p.requires_grad, t.tolist())
p, t = jvp(lambda x: x * 2, (c.detach(),), (torch.tensor(1.),))
print(p.is_leaf, p.requires_grad, p.grad_fn, t)
