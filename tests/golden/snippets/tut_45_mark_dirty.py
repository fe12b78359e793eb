# ctx.mark_dirty, after the example in the autograd.Function docs
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class Inplace(Function):
    @staticmethod
    def forward(ctx, x):
        x_npy = x.numpy()  # x_npy shares storage with x
        x_npy += 1
        ctx.mark_dirty(x)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        return grad_output


class AddOne(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


a = torch.tensor([1.0, 2.0], requires_grad=True).clone()
out = AddOne.apply(a)
print(out, out is a)
print(a.grad_fn)
out.sum().backward()

leaf = torch.tensor([1.0], requires_grad=True)
try:
    AddOne.apply(leaf)
except RuntimeError as e:
    print(type(e).__name__, e)

a = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
b = a * a
Inplace.apply(a)  # This would lead to wrong gradients!
print(a)
b.backward()  # RuntimeError: one of the variables needed for gradient computation has been modified
