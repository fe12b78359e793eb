# The Exp example from the torch.autograd.Function docs
import torch
from torch.autograd.function import Function


class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result


torch.manual_seed(0)
x = torch.randn(4, requires_grad=True)
output = Exp.apply(x)
print(output)
print(output.grad_fn)
print(type(output.grad_fn).__name__, output.grad_fn.name())
output.sum().backward()
print(x.grad)
print(torch.allclose(x.grad, x.exp()))

inp = torch.randn(3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Exp.apply, (inp,), eps=1e-6, atol=1e-4))
print(issubclass(Exp, torch.autograd.Function))
