# clamp_min and clamp_max with a tensor bound are their own ops (ClampMinBackward1 and
# ClampMaxBackward1, two inputs), unlike clamp(min=tensor): at a tie the gradient and the tangent go
# to self, where clamp's tangent takes the bound's.
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([1.0, 2.0, 3.0, -1.0], requires_grad=True)
m = torch.tensor([1.0, 1.0, 4.0, 0.0], requires_grad=True)
for name, f in [("clamp_min", lambda a: a.clamp_min(m)), ("clamp_max", lambda a: torch.clamp_max(a, m)),
                ("clamp(min=)", lambda a: torch.clamp(a, min=m)), ("clamp_min_", lambda a: a.clone().clamp_min_(m)),
                ("clamp_min_ number", lambda a: a.clone().clamp_min_(1.0)), ("clamp_max broadcast", lambda a: a.clamp_max(m[:1]))]:
    x.grad = m.grad = None
    out = f(x)
    out.sum().backward()
    print(name, out, [type(fn).__name__ if fn is not None else None for fn, _ in out.grad_fn.next_functions])
    print("  grads", x.grad, m.grad)
with fwAD.dual_level():
    xd = fwAD.make_dual(x.detach(), torch.tensor([10.0, 20.0, 30.0, 40.0]))
    md = fwAD.make_dual(m.detach(), torch.tensor([1.0, 2.0, 3.0, 4.0]))
    print("clamp_min tangent", fwAD.unpack_dual(xd.clamp_min(md)).tangent)
    print("clamp(min=) tangent", fwAD.unpack_dual(torch.clamp(xd, min=md)).tangent)
    print("clamp_max tangent", fwAD.unpack_dual(xd.clamp_max(md)).tangent)
    y = xd.clone()
    y.clamp_min_(m)
    print("clamp_min_ tangent", fwAD.unpack_dual(y).tangent)
