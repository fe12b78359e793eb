# Pooling tangents: a max pool picks the tangent at each maximum (its indices carry no tangent),
# an average pool averages the tangent over the same windows.
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

x = torch.arange(32.0).reshape(1, 2, 4, 4).sin()
v = torch.arange(32.0).reshape(1, 2, 4, 4).cos()
with fwAD.dual_level():
    xd = fwAD.make_dual(x, v)
    print("max 2:", fwAD.unpack_dual(F.max_pool2d(xd, 2)).tangent)
    print("max 3/1/1:", fwAD.unpack_dual(F.max_pool2d(xd, 3, stride=1, padding=1)).tangent)
    values, indices = F.max_pool2d(xd, 2, return_indices=True)
    print(indices, fwAD.unpack_dual(indices).tangent)
    print("avg 2:", fwAD.unpack_dual(F.avg_pool2d(xd, 2)).tangent)
    print("avg 3/2/1:", fwAD.unpack_dual(F.avg_pool2d(xd, 3, stride=2, padding=1, count_include_pad=False)).tangent)
    print("adaptive (3, 2):", fwAD.unpack_dual(F.adaptive_avg_pool2d(xd, (3, 2))).tangent)
    print("adaptive 1:", fwAD.unpack_dual(F.adaptive_avg_pool2d(xd, 1)).tangent)
    x1 = fwAD.make_dual(torch.tensor([[1.0, 3.0, 2.0, 0.0, 5.0]]), torch.tensor([[0.1, 0.2, 0.3, 0.4, 0.5]]))
    print("max1d:", fwAD.unpack_dual(F.max_pool1d(x1, 2)).tangent)
    print("avg1d:", fwAD.unpack_dual(F.avg_pool1d(x1, 3, stride=1)).tangent)
    print("adaptive1d:", fwAD.unpack_dual(F.adaptive_avg_pool1d(x1, 2)).tangent)
    print(fwAD.unpack_dual(torch.nn.MaxPool2d(2)(xd)).tangent.shape)
