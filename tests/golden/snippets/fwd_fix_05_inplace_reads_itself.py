# An in-place op whose operand shares the written memory (x.mul_(x), or x written with a dual view
# of itself) runs its tangent formula after the write: the operand's primal is then the new value,
# while self's is the value from before. div's formula (self_t - other_t * result) / other reads
# the result.
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([[2.66, 1.33], [2.2, -1.59]], dtype=torch.float64)
t = torch.tensor([[2.52, -2.49], [-1.0, -1.0]], dtype=torch.float64)
with fwAD.dual_level():
    for name, f in [("mul_", lambda d: d.mul_(d)), ("div_", lambda d: d.div_(d)), ("add_", lambda d: d.add_(d)),
                    ("addcmul_", lambda d: d.addcmul_(d, d)), ("sub_ of a product", lambda d: d.sub_(d * 2))]:
        d = fwAD.make_dual(x.clone(), t)
        f(d)
        print(name, fwAD.unpack_dual(d).tangent)
    v0 = torch.tensor([0.36, -2.03, -1.27], requires_grad=True)
    v1 = fwAD.make_dual(v0, torch.tensor([-1.38, -2.55, 2.33]))
    with torch.no_grad():
        v0.div_(v1)
    print("div_ by a dual view of itself", fwAD.unpack_dual(v0).tangent, fwAD.unpack_dual(v1).tangent)
    a = torch.tensor([1.5, -0.0, 2.0, float("inf")], requires_grad=True)
    b = torch.tensor([2.0, -1.0, 0.0, 2.0])
    for name, out in [("div, self dual", fwAD.make_dual(a, torch.ones(4)) / b),
                      ("div, other dual", a / fwAD.make_dual(b, torch.tensor([0.5, 1.0, 1.0, 0.0])))]:
        print(name, fwAD.unpack_dual(out).tangent)
