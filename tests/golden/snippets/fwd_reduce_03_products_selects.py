import warnings

import torch
import torch.autograd.forward_ad as fwAD

# PyTorch's first make_dual loads its jvp decompositions, whose torch.jit.script calls each warn
# that jit.script is deprecated; not what this snippet is about.
warnings.filterwarnings("ignore", category=DeprecationWarning)

A = torch.tensor([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]])
B = torch.tensor([[0.5, 1.0], [2.0, -1.0], [1.0, 1.0]])
u = torch.tensor([1.0, -2.0, 0.5])
w = torch.tensor([2.0, 1.0, -1.0])

with fwAD.dual_level():
    dA = fwAD.make_dual(A, torch.ones(2, 3))
    dB = fwAD.make_dual(B, torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]]))
    du = fwAD.make_dual(u, torch.tensor([0.0, 1.0, 2.0]))
    print("mm both dual:", fwAD.unpack_dual(dA @ dB).tangent)
    print("mm left dual:", fwAD.unpack_dual(torch.mm(dA, B)).tangent)
    print("mv:", fwAD.unpack_dual(torch.mv(dA, du)).tangent)
    print("dot:", fwAD.unpack_dual(torch.dot(du, w)).tangent)
    print("outer:", fwAD.unpack_dual(torch.outer(du, w)).tangent)
    print("bmm:", fwAD.unpack_dual(torch.bmm(dA.unsqueeze(0), dB.unsqueeze(0))).tangent)
    print("matmul 3d @ 2d:", fwAD.unpack_dual(torch.stack([dA, 2 * dA]) @ B).tangent)
    print("linear:", fwAD.unpack_dual(torch.nn.functional.linear(dA, B.t(), torch.tensor([1.0, 2.0]))).tangent)

    a = fwAD.make_dual(torch.tensor([1.0, 2.0, 3.0, 4.0]), torch.tensor([1.0, 1.0, 1.0, 1.0]))
    b = fwAD.make_dual(torch.tensor([2.0, 2.0, 1.0, 5.0]), torch.tensor([10.0, 10.0, 10.0, 10.0]))
    print("maximum:", fwAD.unpack_dual(torch.maximum(a, b)).tangent)
    print("minimum:", fwAD.unpack_dual(torch.minimum(a, b)).tangent)
    print("maximum plain other:", fwAD.unpack_dual(torch.maximum(a, torch.tensor([2.0, 2.0, 1.0, 5.0]))).tangent)
    print("clamp(2, 3):", fwAD.unpack_dual(a.clamp(2, 3)).tangent)
    print("clamp(min=2):", fwAD.unpack_dual(a.clamp(min=2)).tangent)
    print("clamp(max=b):", fwAD.unpack_dual(a.clamp(max=b)).tangent)
    print("clamp(b, 3.5 tensor):", fwAD.unpack_dual(torch.clamp(a, b, torch.full((4,), 3.5))).tangent)
    print("where:", fwAD.unpack_dual(torch.where(a > 2, a, b)).tangent)
    print("where with a number:", fwAD.unpack_dual(torch.where(a > 2, a, 0.0)).tangent)
    print("remainder:", fwAD.unpack_dual(torch.remainder(b, a)).tangent)
    print("fmod:", fwAD.unpack_dual(torch.fmod(-b, a)).tangent)
    print("% 3:", fwAD.unpack_dual(b % 3).tangent)
    print("lerp 0.25:", fwAD.unpack_dual(torch.lerp(a, b, 0.25)).tangent)
    print("lerp tensor:", fwAD.unpack_dual(torch.lerp(a, b, a / 10)).tangent)
    print("addcmul:", fwAD.unpack_dual(torch.addcmul(a, a, b, value=0.5)).tangent)
    print("addcdiv:", fwAD.unpack_dual(torch.addcdiv(torch.zeros(4), a, b, value=2)).tangent)
    try:
        a // 2
    except NotImplementedError as e:
        print(type(e).__name__, e)
    try:
        3.0 % a
    except NotImplementedError as e:
        print(type(e).__name__, e)
