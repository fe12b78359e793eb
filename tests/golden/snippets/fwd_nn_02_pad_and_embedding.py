# Padding and embedding lookups are linear: the tangent is padded (with zeros, whatever the
# padding value) or looked up the same way.
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
with fwAD.dual_level():
    xd = fwAD.make_dual(x, torch.ones(2, 3))
    print(fwAD.unpack_dual(F.pad(xd, (1, 2), value=7.0)))
    print(fwAD.unpack_dual(F.pad(xd, (-1, 1, 1, 0))).tangent)

    weight = torch.arange(8.0).reshape(4, 2)
    wd = fwAD.make_dual(weight, -torch.arange(8.0).reshape(4, 2) / 10)
    idx = torch.tensor([[0, 3], [1, 1]])
    out = F.embedding(idx, wd)
    print(out.shape, fwAD.unpack_dual(out).tangent)
    # padding_idx only changes the gradient, not the forward value or its tangent
    out = F.embedding(idx, wd, padding_idx=1)
    print(fwAD.unpack_dual(out).tangent)
    emb = torch.nn.Embedding(4, 2)
    with torch.no_grad():
        emb.weight.copy_(weight)
    print(fwAD.unpack_dual(emb(idx)).tangent)
