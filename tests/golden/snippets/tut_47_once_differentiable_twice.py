# once_differentiable: double backward through it is an error
import torch
from torch.autograd.function import Function, once_differentiable


class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        print("grad mode in backward:", torch.is_grad_enabled())
        return 2 * x * grad_output


torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = Square.apply(x)
z = (y * y).sum()  # the grad reaching Square's backward now requires grad
g, = torch.autograd.grad(z, x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
print(torch.allclose(g, 4 * x ** 3))
g.sum().backward()
