# An in-place custom Function (mark_dirty) must update the tangent in place too, and return it as is.
import torch
import torch.autograd.forward_ad as fwAD


class MulTwo_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def jvp(ctx, x_t):
        x_t.mul_(2)
        return x_t


class AddInto_(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        x.add_(y)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def jvp(ctx, x_t, y_t):
        print("x_t", x_t, "y_t", y_t)
        x_t.add_(y_t)
        return x_t


class NotInPlace(MulTwo_):
    @staticmethod
    def jvp(ctx, x_t):
        return x_t * 2


class NotAsIs(MulTwo_):
    @staticmethod
    def jvp(ctx, x_t):
        x_t.mul_(2)
        return x_t.clone()


with fwAD.dual_level():
    a = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
    out = MulTwo_.apply(a)
    print(out is a, a)
    b = torch.tensor([1.0, 2.0])
    out = AddInto_.apply(b, fwAD.make_dual(torch.tensor([3.0, 4.0]), torch.tensor([0.5, 0.0])))
    print(out is b, b)
    for fn in (NotInPlace, NotAsIs):
        c = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
        try:
            fn.apply(c)
        except RuntimeError as e:
            print(fn.__name__, e)
