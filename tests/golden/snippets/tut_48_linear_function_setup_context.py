# "Extending PyTorch": LinearFunction with setup_context, and MulConstant with a non-tensor input
import torch
from torch.autograd import Function


class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


torch.manual_seed(0)
input = (torch.randn(4, 3, dtype=torch.double, requires_grad=True),
         torch.randn(2, 3, dtype=torch.double, requires_grad=True),
         torch.randn(2, dtype=torch.double, requires_grad=True))
print(torch.autograd.gradcheck(LinearFunction.apply, input, eps=1e-6, atol=1e-4))
out = LinearFunction.apply(*input)
print(out)
print(torch.allclose(out, torch.nn.functional.linear(*input)))

t = torch.randn(3, requires_grad=True)
m = MulConstant.apply(t, 5.0)
m.sum().backward()
print(t.grad)
print(torch.autograd.gradcheck(lambda v: MulConstant.apply(v, 3.0),
                               (torch.randn(2, dtype=torch.double, requires_grad=True),)))
