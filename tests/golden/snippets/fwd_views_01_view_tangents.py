import warnings

import torch
import torch.autograd.forward_ad as fwAD

# PyTorch's first make_dual loads its jvp decompositions, whose torch.jit.script calls each warn
# that jit.script is deprecated; not what this snippet is about.
warnings.filterwarnings("ignore", category=DeprecationWarning)

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
v = torch.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]])

with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    views = {
        "view(3, 2)": d.view(3, 2), "reshape(-1)": d.reshape(-1), "t()": d.t(), "transpose(0, 1)": d.transpose(0, 1),
        "permute(1, 0)": d.permute(1, 0), "unsqueeze(1)": d.unsqueeze(1), "unsqueeze(0).squeeze()": d.unsqueeze(0).squeeze(),
        "expand(2, 2, 3)": d.expand(2, 2, 3), "d[1]": d[1], "d[:, 1:]": d[:, 1:], "d[..., ::2]": d[..., ::2],
        "d[None, 0]": d[None, 0], "narrow(1, 1, 2)": d.narrow(1, 1, 2), "select(1, 2)": d.select(1, 2),
        "flatten()": d.flatten(), "mT": d.mT, "d[...]": d[...], "view_as": d.view_as(torch.zeros(6)),
    }
    for name, out in views.items():
        p, t = fwAD.unpack_dual(out)
        print(name, tuple(t.shape), t.stride(), t.tolist())
    # the tangent of a view is a view of the tangent: same memory
    t = fwAD.unpack_dual(d[0]).tangent
    print("shares memory:", t.data_ptr() == fwAD.unpack_dual(d).tangent.data_ptr())
    t2 = fwAD.unpack_dual(d[:, 2]).tangent
    print("column stride:", t2.stride())
    # a copy, not a view
    print("transposed reshape:", fwAD.unpack_dual(d.t().reshape(6)).tangent)
    print("contiguous:", fwAD.unpack_dual(d.t().contiguous()).tangent)
    for piece in d.unbind(1):
        print("unbind:", fwAD.unpack_dual(piece).tangent)
    for piece in d.split([1, 2], dim=1):
        print("split:", fwAD.unpack_dual(piece).tangent)
    for piece in d.chunk(2, dim=1):
        print("chunk:", fwAD.unpack_dual(piece).tangent)
