import warnings

import torch
import torch.autograd.forward_ad as fwAD

# PyTorch's first make_dual loads its jvp decompositions, whose torch.jit.script calls each warn
# that jit.script is deprecated; not what this snippet is about.
warnings.filterwarnings("ignore", category=DeprecationWarning)

x = torch.tensor([[0.5, -1.0, 2.0, 1.5], [3.0, 0.0, -2.0, 1.0]])
v = torch.tensor([[1.0, 2.0, -1.0, 0.0], [0.5, -0.5, 1.0, 2.0]])

with fwAD.dual_level():
    dx = fwAD.make_dual(x, v)
    print("softmax(1):", fwAD.unpack_dual(dx.softmax(1)).tangent)
    print("softmax(0):", fwAD.unpack_dual(torch.softmax(dx, 0)).tangent)
    print("log_softmax(1):", fwAD.unpack_dual(dx.log_softmax(1)).tangent)
    print("F.log_softmax(dim=0):", fwAD.unpack_dual(torch.nn.functional.log_softmax(dx, dim=0)).tangent)
    print("logsumexp((0, 1)):", fwAD.unpack_dual(torch.logsumexp(dx, (0, 1))).tangent)
    print("cumsum(1):", fwAD.unpack_dual(dx.cumsum(1)).tangent)
    print("cumprod(1):", fwAD.unpack_dual(dx.cumprod(1)).tangent)
    s = dx.sort(1)
    print("sort values:", fwAD.unpack_dual(s.values).tangent)
    print("sort indices:", s.indices)
    s = dx.sort(0, descending=True)
    print("sort(0, descending):", fwAD.unpack_dual(s.values).tangent)
    k = dx.topk(2)
    print("topk(2):", fwAD.unpack_dual(k.values).tangent, k.indices)
    k = dx.topk(1, dim=0, largest=False)
    print("topk smallest:", fwAD.unpack_dual(k.values).tangent)
    print("gather:", fwAD.unpack_dual(dx.gather(1, torch.tensor([[3, 0], [1, 1]]))).tangent)
    print("grad_fn:", dx.softmax(1).grad_fn, dx.cumprod(1).grad_fn)
