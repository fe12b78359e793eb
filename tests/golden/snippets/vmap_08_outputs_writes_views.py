# vmap: an unbatched output with out_dims > 0 is expanded as PyTorch's _remove_batch_dim does (the
# batch size inserted at out_dim, so it can fail), squeeze of 0-dim examples, in-place view ops,
# `.data` and writes of a batch into an unbatched tensor; jacfwd still runs those
import warnings
import torch
from torch.func import vmap, grad, jacfwd, hessian
warnings.simplefilter("ignore")
x = torch.arange(6.0, requires_grad=True)
y = torch.ones(2, 1, 3, 3)
print(vmap(lambda a, b: b[::2], in_dims=(3, None), out_dims=1)(y, x))
print(vmap(lambda a, b: b[::2], in_dims=(3, None), out_dims=0)(y, x))
try:
    vmap(lambda a, b: b.log(), in_dims=(0, None), out_dims=1)(torch.ones(2, 3), torch.ones(4))
except RuntimeError as e:
    print(type(e).__name__, e)
v = torch.tensor([-1.45, 0.13, 1.53], requires_grad=True)
print(vmap(grad(lambda t: 1 / t.squeeze(0)))(v))
for d in (-1, (0, -1)):
    try:
        vmap(lambda t: t.squeeze(d))(v)
    except RuntimeError as e:
        print(type(e).__name__, e)
try:
    hessian(lambda t: (t.sum().squeeze(-1) * t).sum())(torch.tensor([0.5, 1.0]))
except RuntimeError as e:
    print(type(e).__name__, e)
w = torch.arange(6.).reshape(2, 3)
print(vmap(lambda t: t.clone().unsqueeze_(0))(w).shape, vmap(lambda t: t.unsqueeze(1).squeeze_())(w).shape)
print(vmap(lambda t: t.unsqueeze(0).t_())(w).shape, vmap(lambda t: t.unsqueeze(0).transpose_(0, 1))(w).shape)
try:
    vmap(lambda t: t.max().data.mul_(2))(w)
except RuntimeError as e:
    print(type(e).__name__, e)
writes = [("add_", lambda o, t: o.add_(t)), ("mul_", lambda o, t: o.mul_(t)), ("copy_", lambda o, t: o.copy_(t)),
          ("fill_", lambda o, t: o.fill_(t.sum())), ("clamp_", lambda o, t: o.clamp_(t)),
          ("masked_fill_", lambda o, t: o.masked_fill_(o > 0, t.sum())), ("o[0] =", lambda o, t: o.__setitem__(0, t[0])),
          ("o[idx] =", lambda o, t: o.__setitem__((t > 0).long(), 1.0)), ("o **=", lambda o, t: o.__ipow__(t))]
for name, write in writes:
    def f(t):
        o = torch.zeros(3)
        write(o, t)
        return o
    try:
        vmap(f)(w)
    except RuntimeError as e:
        print(name, type(e).__name__, e)
    if name != "fill_":  # functorch's fill_ tangent formula refuses a batched value (not reproduced)
        print(name, jacfwd(f)(torch.ones(3)))
for f in (lambda t: t[t > 0], lambda t: t[t > -100]):  # refused even when every example selects alike
    try:
        vmap(f)(w)
    except RuntimeError as e:
        print(type(e).__name__, e)
print(jacfwd(lambda t: t[t > 0] * 2)(torch.tensor([1., -1., 2.])))
