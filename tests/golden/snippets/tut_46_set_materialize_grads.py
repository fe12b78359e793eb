# ctx.set_materialize_grads(False): undefined output grads arrive as None
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class SimpleFunc(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        print("SimpleFunc got", g1, g2)
        return g1 + g2  # No check for None necessary


class Func(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x.clone(), x.clone()

    @staticmethod
    @once_differentiable
    def backward(ctx, g1, g2):
        print("Func got", g1, g2)
        x, = ctx.saved_tensors
        grad_input = torch.zeros_like(x)
        if g1 is not None:  # We must check for None now
            grad_input += g1
        if g2 is not None:
            grad_input += g2
        return grad_input


a = torch.tensor(1., requires_grad=True)
b, _ = SimpleFunc.apply(a)  # induces g2 to be undefined
b.backward()
print(a.grad)

a = torch.tensor(1., requires_grad=True)
b, _ = Func.apply(a)
(b * 3).backward()
print(a.grad)
