# cumprod's tangent is PyTorch's cumprod_jvp: cumsum(t / x) * result, and from a slice's first zero on
# the cumulative product with that zero replaced by its tangent, chosen by a where.
import torch

fwAD = torch.autograd.forward_ad
for p in (torch.tensor([[1.5, -2.0, 0.5], [0.25, 3.0, -1.0]]), torch.tensor([[1.5, 0., 0.5, 2.], [0., 3., 0., -1.]])):
    for tangent_grad in (False, True):
        with fwAD.dual_level():
            t = torch.arange(float(p.numel())).reshape(p.shape).requires_grad_(tangent_grad)
            out = torch.cumprod(fwAD.make_dual(p, t), 1)
            tg = fwAD.unpack_dual(out).tangent
            print(tg, tg.grad_fn.name() if tg.grad_fn else None)
            if tg.grad_fn:
                print(" ", [(f.name() if f else None) for f, _ in tg.grad_fn.next_functions])
print(torch.func.jacfwd(lambda x: x.cumprod(0))(torch.tensor([2.0, 0.0, 3.0, 0.0])))
