# A tangent requires grad when its formula reads a primal that does: logsumexp and prod read the
# input (a 0-dim one too for logsumexp; prod of a 0-dim input does not), addcmul and addcdiv read
# tensor1 and tensor2 even when only self has a tangent (the missing tangents count as zeros).
import torch
import torch.autograd.forward_ad as fwAD

x0 = torch.tensor(-0.08, requires_grad=True)
x = torch.tensor([[1.5, 0.0, 0.0], [0.5, -1.0, 3.0]], requires_grad=True)
w = torch.tensor([[1.16, -1.43, -1.09], [1.99, 0.56, -0.02]], requires_grad=True)
c = torch.tensor([1.74, -2.91, 2.47])
with fwAD.dual_level():
    d0 = fwAD.make_dual(x0, torch.tensor(-0.44))
    for name, out in [("logsumexp 0-dim", d0.logsumexp(-1)), ("prod 0-dim", d0.prod()),
                      ("sqrt then prod 0-dim", d0.sqrt().prod(-1))]:
        t = fwAD.unpack_dual(out).tangent
        print(name, t, t.requires_grad)
    d = fwAD.make_dual(x, torch.ones_like(x))
    for name, out in [("prod, two zeros", d.prod()), ("prod dim", d.prod(-1)),
                      ("sqrt then prod", d.sqrt().prod()), ("logsumexp", d.logsumexp(0))]:
        t = fwAD.unpack_dual(out).tangent
        print(name, t, t.requires_grad)
    dc = fwAD.make_dual(c, torch.tensor([-0.22, 2.41, 0.45]))
    for name, out in [("addcmul self dual", dc.addcmul(w, w, value=0.5)),
                      ("addcmul tensor1 dual", w.detach().addcmul(dc, w)),
                      ("addcdiv self dual", dc.addcdiv(w.detach(), w)),
                      ("addcmul nothing requires grad", dc.addcmul(c, c))]:
        t = fwAD.unpack_dual(out).tangent
        print(name, t, t.requires_grad)
    with torch.no_grad():
        t = fwAD.unpack_dual(d.prod()).tangent
        print("no_grad prod", t, t.requires_grad)
