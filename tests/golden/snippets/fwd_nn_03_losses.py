# Tangents of the loss functions, for each reduction: the directional derivative of the loss
# along the tangents of the prediction (and of the target, where the loss depends on it).
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

x = torch.tensor([[-1.5, 0.3, 2.0], [0.7, -0.2, 1.1]])
y = torch.tensor([[0.5, 0.5, 0.5], [1.0, 2.0, 3.0]])
labels = torch.tensor([2, 0])
with fwAD.dual_level():
    xd = fwAD.make_dual(x, torch.tensor([[1.0, -2.0, 0.5], [0.3, 0.1, -1.0]]))
    yd = fwAD.make_dual(y, torch.ones(2, 3))
    for red in ("none", "mean", "sum"):
        print("reduction", red)
        print("  mse", fwAD.unpack_dual(F.mse_loss(xd, y, reduction=red)).tangent)
        print("  mse (both dual)", fwAD.unpack_dual(F.mse_loss(xd, yd, reduction=red)).tangent)
        print("  l1", fwAD.unpack_dual(F.l1_loss(xd, yd, reduction=red)).tangent)
        print("  smooth_l1", fwAD.unpack_dual(F.smooth_l1_loss(xd, yd, reduction=red, beta=0.5)).tangent)
        print("  nll", fwAD.unpack_dual(F.nll_loss(xd, labels, reduction=red)).tangent)
        w = torch.tensor([1.0, 2.0, 3.0])
        print("  nll weighted", fwAD.unpack_dual(F.nll_loss(xd, labels, weight=w, reduction=red)).tangent)
        print("  cross_entropy", fwAD.unpack_dual(F.cross_entropy(xd, labels, reduction=red)).tangent)
        p = torch.sigmoid(xd)
        print("  bce", fwAD.unpack_dual(F.binary_cross_entropy(p, torch.sigmoid(yd), reduction=red)).tangent)
        print("  bce weighted", fwAD.unpack_dual(F.binary_cross_entropy(p, torch.sigmoid(y), weight=w,
                                                                          reduction=red)).tangent)
        print("  bce_with_logits", fwAD.unpack_dual(F.binary_cross_entropy_with_logits(
            xd, torch.sigmoid(yd), reduction=red)).tangent)
        print("  bce_with_logits pos_weight", fwAD.unpack_dual(F.binary_cross_entropy_with_logits(
            xd, torch.sigmoid(yd), weight=torch.tensor([2.0, 1.0, 1.0]), pos_weight=w, reduction=red)).tangent)
    loss = torch.nn.MSELoss()(xd, y)
    print(loss, fwAD.unpack_dual(loss).tangent)
