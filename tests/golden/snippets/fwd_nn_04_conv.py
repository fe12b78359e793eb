# A convolution is linear in its input and in its weight: the tangent is conv(x_t, w) + conv(x, w_t)
# plus the bias's tangent on each output channel.
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

x = torch.arange(32.0).reshape(1, 2, 4, 4).sin()
w = torch.arange(18.0).reshape(1, 2, 3, 3).cos()
b = torch.tensor([0.5])
x_t = torch.arange(32.0).reshape(1, 2, 4, 4).cos()
w_t = torch.full((1, 2, 3, 3), 0.1)
b_t = torch.tensor([2.0])
with fwAD.dual_level():
    xd, wd, bd = fwAD.make_dual(x, x_t), fwAD.make_dual(w, w_t), fwAD.make_dual(b, b_t)
    print("input dual:", fwAD.unpack_dual(F.conv2d(xd, w, b, padding=1)).tangent)
    print("weight dual:", fwAD.unpack_dual(F.conv2d(x, wd, b, stride=2, padding=1)).tangent)
    print("bias dual:", fwAD.unpack_dual(F.conv2d(x, w, bd)).tangent)
    out = F.conv2d(xd, wd, bd)
    print("all dual:", out, fwAD.unpack_dual(out).tangent)
    # the sum of the three single-direction tangents
    parts = [fwAD.unpack_dual(F.conv2d(*args)).tangent for args in ((xd, w), (x, wd), (x, w, bd))]
    print(torch.allclose(parts[0] + parts[1] + parts[2], fwAD.unpack_dual(out).tangent))
    x1 = fwAD.make_dual(torch.arange(10.0).reshape(1, 2, 5).sin(), torch.ones(1, 2, 5))
    w1 = fwAD.make_dual(torch.arange(6.0).reshape(1, 2, 3).cos(), torch.full((1, 2, 3), 0.5))
    print("conv1d:", fwAD.unpack_dual(F.conv1d(x1, w1, padding="same")).tangent)
    g = torch.arange(8.0).reshape(1, 4, 2).cos()
    gd = fwAD.make_dual(torch.arange(4.0).reshape(4, 1, 1), torch.ones(4, 1, 1))
    print("groups:", fwAD.unpack_dual(F.conv1d(fwAD.make_dual(g, g * 2), gd, groups=4)).tangent)
