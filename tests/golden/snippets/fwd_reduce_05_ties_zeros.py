import warnings

import torch
import torch.autograd.forward_ad as fwAD

# PyTorch's first make_dual loads its jvp decompositions, whose torch.jit.script calls each warn
# that jit.script is deprecated; not what this snippet is about.
warnings.filterwarnings("ignore", category=DeprecationWarning)

t4 = torch.tensor([1.0, 2.0, 4.0, 8.0])
with fwAD.dual_level():
    tie = fwAD.make_dual(torch.tensor([3.0, 1.0, 3.0, 0.0]), t4)
    print("max with a tie:", fwAD.unpack_dual(tie.max()).tangent)
    print("max(0) with a tie:", fwAD.unpack_dual(tie.max(0).values).tangent)
    print("amax with a tie:", fwAD.unpack_dual(tie.amax()).tangent)
    print("min:", fwAD.unpack_dual(tie.min()).tangent)
    nan = fwAD.make_dual(torch.tensor([1.0, float("nan"), 3.0, 0.0]), t4)
    print("max with NaN:", fwAD.unpack_dual(nan.max()).tangent)
    print("amax with NaN:", fwAD.unpack_dual(nan.amax()).tangent)
    print("sort with a tie:", fwAD.unpack_dual(tie.sort().values).tangent)
    other = fwAD.make_dual(torch.tensor([3.0, 2.0, 1.0, 0.0]), torch.full((4,), 100.0))
    print("maximum at ties:", fwAD.unpack_dual(torch.maximum(tie, other)).tangent)
    print("clamp at the bounds:", fwAD.unpack_dual(tie.clamp(1.0, 3.0)).tangent)
    lo = fwAD.make_dual(torch.tensor([3.0, 1.0, 0.0, 0.0]), torch.full((4,), -1.0))
    print("clamp(min=tensor) at ties:", fwAD.unpack_dual(tie.clamp(min=lo)).tangent)
    print("clamp(max=tensor) at ties:", fwAD.unpack_dual(tie.clamp(max=lo)).tangent)
    print("clamp(lo, hi) with lo > hi:", fwAD.unpack_dual(torch.clamp(tie, lo, lo - 1)).tangent)
    zero = fwAD.make_dual(torch.tensor([[2.0, 0.0, 3.0], [1.0, 4.0, 0.5]]), torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
    print("prod with a zero:", fwAD.unpack_dual(zero.prod()).tangent)
    print("prod(1) with a zero:", fwAD.unpack_dual(zero.prod(1)).tangent)
    two = fwAD.make_dual(torch.tensor([0.0, 2.0, 0.0]), torch.tensor([1.0, 1.0, 1.0]))
    print("prod with two zeros:", fwAD.unpack_dual(two.prod()).tangent)
    print("cumprod with zeros:", fwAD.unpack_dual(two.cumprod(0)).tangent)
    print("cumprod(1) with a zero:", fwAD.unpack_dual(zero.cumprod(1)).tangent)
    flat = fwAD.make_dual(torch.zeros(3), torch.tensor([1.0, -2.0, 2.0]))
    print("norm at zero:", fwAD.unpack_dual(flat.norm()).tangent)
    print("std of a constant:", fwAD.unpack_dual(flat.std()).tangent)
    print("norm(inf) at zero:", fwAD.unpack_dual(flat.norm(p=float("inf"))).tangent)
    print("var of one element:", fwAD.unpack_dual(flat[:1].var()).tangent)
    scalar = fwAD.make_dual(torch.tensor(2.0), torch.tensor(3.0))
    print("0-dim:", fwAD.unpack_dual(scalar.sum()).tangent, fwAD.unpack_dual(scalar.max(0).values).tangent,
          fwAD.unpack_dual(scalar.prod()).tangent, fwAD.unpack_dual(scalar.softmax(0)).tangent)
    torch.floor_divide(tie, 2)
