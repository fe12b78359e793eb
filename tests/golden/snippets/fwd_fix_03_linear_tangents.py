# addmm's tangent is self_t + mat1_t.mm(mat2_p) + mat1_p.mm(mat2_t), added in that order; a missing
# tangent's term still reads its primal, so an nn.Linear whose parameters require grad gives the
# input's tangent a graph (AddBackward0), whichever operand is dual.
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
with fwAD.dual_level():
    xd = fwAD.make_dual(x, torch.ones_like(x))
    for name, f in [("Linear", lambda: lin(xd)), ("Linear 1-D", lambda: lin(xd[0])),
                    ("Linear 3-D", lambda: lin(xd.unsqueeze(0))), ("linear no bias", lambda: F.linear(xd, lin.weight)),
                    ("bias dual", lambda: F.linear(x, lin.weight, fwAD.make_dual(lin.bias.detach(), torch.ones(2)))),
                    ("weight dual", lambda: F.linear(x, fwAD.make_dual(lin.weight.detach(), torch.ones(2, 3)), lin.bias)),
                    ("addmm", lambda: torch.addmm(lin.bias, xd, lin.weight.t())),
                    ("addmm, nothing requires grad", lambda: torch.addmm(torch.tensor([-0.0, 1.0]), xd, torch.ones(3, 2))),
                    ("addmm, self dual only", lambda: torch.addmm(fwAD.make_dual(torch.zeros(2), torch.tensor([-0.0, 2.0])), x, torch.ones(3, 2)))]:
        out = f()
        t = fwAD.unpack_dual(out).tangent
        print(name, type(out.grad_fn).__name__, t)
