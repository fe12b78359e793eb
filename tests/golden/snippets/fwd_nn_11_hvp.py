# Forward-over-reverse through the nn ops: the tangent of a gradient is a Hessian-vector product,
# so the backward formulas of conv, pooling and embedding push tangents too.
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

x = torch.arange(32.0).reshape(1, 2, 4, 4).sin().requires_grad_()
w = torch.arange(18.0).reshape(1, 2, 3, 3).cos().requires_grad_()
with fwAD.dual_level():
    xd = fwAD.make_dual(x, torch.arange(32.0).reshape(1, 2, 4, 4).cos())
    wd = fwAD.make_dual(w, torch.full((1, 2, 3, 3), 0.1))
    out = F.conv2d(xd, wd, padding=1)
    gx, gw = torch.autograd.grad((out * out).sum(), (x, w))
    print("H v for the input:", fwAD.unpack_dual(gx).tangent)
    print("H v for the weight:", fwAD.unpack_dual(gw).tangent)
    pools = {"max": lambda a: F.max_pool2d(a, 2), "avg": lambda a: F.avg_pool2d(a, 3, 1, 1),
             "adaptive": lambda a: F.adaptive_avg_pool2d(a, (3, 2))}
    for name, f in pools.items():
        (g,) = torch.autograd.grad((f(xd) ** 3).sum(), x)
        print(name, fwAD.unpack_dual(g).tangent)
    emb = torch.arange(8.0).reshape(4, 2).requires_grad_()
    ed = fwAD.make_dual(emb, -torch.arange(8.0).reshape(4, 2))
    out = F.embedding(torch.tensor([[0, 3], [1, 1]]), ed, padding_idx=3)
    (g,) = torch.autograd.grad((out * out).sum(), emb)
    print("embedding:", fwAD.unpack_dual(g).tangent)

# The Hessian-vector product of a small CNN's loss along a direction in weight space
torch.manual_seed(0)
conv = torch.nn.Conv2d(1, 2, 3, padding=1)
head = torch.nn.Linear(8, 3)
img = torch.arange(32.0).reshape(2, 1, 4, 4).cos()
labels = torch.tensor([0, 2])
weight = conv.weight
with fwAD.dual_level():
    wd = fwAD.make_dual(weight, torch.ones_like(weight))
    h = F.max_pool2d(F.relu(F.conv2d(img, wd, conv.bias, padding=1)), 2)
    loss = F.cross_entropy(head(h.flatten(1)), labels)
    (g,) = torch.autograd.grad(loss, weight)
    print("loss", loss.detach(), "directional derivative", fwAD.unpack_dual(loss).tangent.detach())
    print("Hv", fwAD.unpack_dual(g).tangent.detach())
