import torch

class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g, g

x = torch.tensor(3.0, requires_grad=True)
y = Square.apply(x)
print(y)
y.backward()
