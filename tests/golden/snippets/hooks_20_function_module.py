# torch.autograd.function exports Function, FunctionCtx, once_differentiable and InplaceFunction
import torch
from torch.autograd.function import Function, FunctionCtx, InplaceFunction, once_differentiable


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return 3 * x ** 2 * grad


a = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(a)
print(isinstance(y.grad_fn, FunctionCtx), issubclass(Cube, Function), y.grad_fn.needs_input_grad)


def pack(t):
    print("pack", t)
    return t


def unpack(t):
    print("unpack", t)
    return t


with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = Cube.apply(a)
print(y.grad_fn._raw_saved_tensors[0].data is a)
y.sum().backward()
print(a.grad)
(g,) = torch.autograd.grad(Cube.apply(a).sum(), a, create_graph=True)
print(g, g.grad_fn)
print(InplaceFunction.__mro__[1] is Function, torch.autograd.function.InplaceFunction is InplaceFunction)
g.sum().backward()
