import torch
from torch.autograd import Function

class MulConst(Function):
    @staticmethod
    def forward(ctx, x, w, k):
        ctx.save_for_backward(x, w)
        ctx.k = k
        return x * w * k

    @staticmethod
    def backward(ctx, grad):
        x, w = ctx.saved_tensors
        print("needs_input_grad", ctx.needs_input_grad)
        gx = grad * w * ctx.k if ctx.needs_input_grad[0] else None
        gw = grad * x * ctx.k if ctx.needs_input_grad[1] else None
        return gx, gw, None

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0])
out = MulConst.apply(x, w, 0.5)
print(out)
out.sum().backward()
print(x.grad, w.grad)
