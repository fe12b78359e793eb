# ctx.mark_dirty: an in-place custom Function returns its input, bumps its version and moves its grad_fn
import torch
from torch.autograd import Function


class MulTwo_(Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.clone()
print(b._version, b.grad_fn)
c = MulTwo_.apply(b)
print(c is b, b._version, c)
print(type(c.grad_fn), c.grad_fn.next_functions)
c.sum().backward()
print(a.grad)

with torch.no_grad():
    d = torch.ones(3)
    print(MulTwo_.apply(d), d._version, d.grad_fn)
e = torch.ones(3)
print(MulTwo_.apply(e), e._version, e.requires_grad)


class AddInto(Function):
    @staticmethod
    def forward(ctx, x, y):
        x.add_(y)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad, grad


x = torch.zeros(3)
r = AddInto.apply(x, a)
print(r is x, x.requires_grad, x.grad_fn.name(), x._version)
r.sum().backward()
print(a.grad)


class SavesDirty(Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        ctx.save_for_backward(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        print("saved", x)
        return grad * 2


s = a.clone()
SavesDirty.apply(s).sum().backward()

v = a.clone()[:2]
out = MulTwo_.apply(v)
print(out, out._version)
for bad in (lambda: MulTwo_.apply(a), lambda: MulTwo_.apply(a[:2])):
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
