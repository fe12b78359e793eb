# Import spellings from different tutorials, mixed in one script.
from torch.autograd.function import Function
import torch.nn.functional as F
from torch import nn, optim, Tensor
import torch
import torch.autograd.function
from torch.autograd import Function as Function2
import torch.autograd.graph


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * grad


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Cube.apply(x)
print(y)
y.sum().backward()
print(x.grad)
print(callable(torch.tensor), isinstance(y, Tensor), Function is Function2 is torch.autograd.Function)
print(F.relu(torch.tensor([-1.0, 1.0])), nn.Linear.__name__, optim.SGD.__name__)
print(torch.autograd.function.Function is Function)
