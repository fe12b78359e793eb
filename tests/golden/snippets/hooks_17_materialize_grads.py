# ctx.set_materialize_grads(False): backward gets None for outputs that received no gradient
import torch
from torch.autograd import Function


class Split(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()

    @staticmethod
    def backward(ctx, g1, g2):
        print("backward got", g1, g2)
        grad = torch.zeros_like(g1 if g1 is not None else g2)
        if g1 is not None:
            grad = grad + g1
        if g2 is not None:
            grad = grad + 2 * g2
        return grad


class SplitMaterialized(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()

    @staticmethod
    def backward(ctx, g1, g2):
        print("backward got", g1, g2)
        return g1 + 2 * g2


a = torch.tensor([1.0, 2.0], requires_grad=True)
o1, o2 = Split.apply(a)
o1.sum().backward()
print(a.grad)
o1, o2 = Split.apply(a)
(o2 * 3).sum().backward()
print(a.grad)
a.grad = None
o1, o2 = SplitMaterialized.apply(a)
o1.sum().backward()
print(a.grad)
o1, o2 = Split.apply(a)
