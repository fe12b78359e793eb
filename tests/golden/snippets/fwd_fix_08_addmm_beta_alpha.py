# addmm's beta and alpha: beta * input + alpha * (mat1 @ mat2), beta=0 ignoring input (NaN too);
# each gradient and tangent term is scaled as derivatives.yaml's maybe_multiply does.
import torch

fwAD = torch.autograd.forward_ad
b = torch.tensor([0.5, float('nan')], requires_grad=True)
x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], requires_grad=True)
w = torch.tensor([[0.1, 0.2], [-0.3, 0.4], [0.5, -0.6]], requires_grad=True)
for kw in [dict(), dict(beta=2), dict(alpha=3), dict(beta=0), dict(beta=0.5, alpha=-2), dict(beta=2, alpha=0)]:
    o = torch.addmm(b, x, w, **kw)
    print(kw, o, o.grad_fn.name())
    b.grad = x.grad = w.grad = None
    o.sum().backward()
    print(" ", b.grad.tolist(), x.grad.tolist(), w.grad.tolist())
    gs = torch.autograd.grad(torch.addmm(b, x, w, **kw).pow(2).sum(), [b, x, w], create_graph=True)
    print(" ", [(g, g.grad_fn.name()) for g in gs])
    with fwAD.dual_level():
        o = torch.addmm(fwAD.make_dual(b.detach(), torch.ones(2)), fwAD.make_dual(x, torch.ones(2, 3)), w, **kw)
        t = fwAD.unpack_dual(o).tangent
        print("  fwd", t.tolist(), t.requires_grad, t.grad_fn.name() if t.grad_fn else None)
print(torch.addmm(torch.tensor([1, 2]), torch.tensor([[1, 2]]), torch.tensor([[3, 4], [5, 6]]), beta=2, alpha=3))
