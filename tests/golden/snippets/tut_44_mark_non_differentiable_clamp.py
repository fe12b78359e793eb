# A clamp that also returns its mask; the mask is marked non-differentiable
import torch
from torch.autograd import Function


class ClampWithMask(Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        mask = (x >= lo) & (x <= hi)
        out = x.clamp(lo, hi)
        ctx.mark_non_differentiable(mask)
        ctx.save_for_backward(mask)
        return out, mask

    @staticmethod
    def backward(ctx, grad_out, grad_mask):
        mask, = ctx.saved_tensors
        print("grad for the mask output:", grad_mask)
        return grad_out * mask, None, None


torch.manual_seed(0)
x = torch.randn(6, requires_grad=True)
out, mask = ClampWithMask.apply(x, -0.5, 0.5)
print(out)
print(mask, mask.requires_grad, mask.grad_fn)
out.sum().backward()
print(x.grad)


class SortWithIndices(Function):
    @staticmethod
    def forward(ctx, x):
        sorted, idx = x.sort()
        ctx.mark_non_differentiable(idx)
        ctx.save_for_backward(x, idx)
        return sorted, idx

    @staticmethod
    def backward(ctx, g1, g2):  # still need to accept g2
        x, idx = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        grad_input.index_add_(0, idx, g1)
        return grad_input


v = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
s, i = SortWithIndices.apply(v)
print(s, i, i.requires_grad)
(s * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(v.grad)
