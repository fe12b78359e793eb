# remainder and fmod by a number have derivatives.yaml's "self: grad": the output's tangent is the
# input's tangent itself, so writing into one writes into the other (a tensor divisor copies).
import torch
import torch.autograd.forward_ad as fwAD

fwAD = torch.autograd.forward_ad
with fwAD.dual_level():
    x = fwAD.make_dual(torch.tensor([1.5, -2.0]), torch.tensor([1.0, 2.0]))
    for name, f in [('rem', lambda a: a % 2), ('fmod', lambda a: torch.fmod(a, 2)), ('remT', lambda a: a % torch.tensor(2.0)), ('rem64', lambda a: a % torch.tensor([2.0, 3.0], dtype=torch.float64))]:
        y = x.detach().clone()
        xd = fwAD.make_dual(y, torch.tensor([1.0, 2.0]))
        o = f(xd)
        fwAD.unpack_dual(o).tangent.mul_(3)
        print(name, fwAD.unpack_dual(xd).tangent.tolist(), fwAD.unpack_dual(o).tangent.tolist())
        o.sub_(xd, alpha=2)
        print(name, fwAD.unpack_dual(xd).tangent.tolist(), fwAD.unpack_dual(o).tangent.tolist())
v0 = torch.tensor(-0.0, dtype=torch.float64, requires_grad=True)
def f0(x0):
    x1 = x0.round()
    x2 = x1.view(-1)
    x3 = x2 % 2
    x3.sub_(x0, alpha=2)
    x4 = x2[-1]
    return x4
print(torch.func.jvp(f0, (v0,), (torch.ones(()).double(),)))
