# What forward mode refuses in a custom Function: no jvp, a wrong number of tangents, a tangent for
# a non-differentiable output, a view returned without a view of the tangent, a wrong size.
import torch
import torch.autograd.forward_ad as fwAD


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class TwoOut(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()

    @staticmethod
    def jvp(ctx, t):
        return t


class Argmax(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = x.clone()
        ctx.mark_non_differentiable(out)
        return out

    @staticmethod
    def jvp(ctx, t):
        return t


class Column(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view(2, 1)

    @staticmethod
    def jvp(ctx, t):
        return t.view(2, 1)


class ColumnCopy(Column):
    @staticmethod
    def jvp(ctx, t):
        return t.view(2, 1).clone()


class Same(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def jvp(ctx, t):
        return t


class Total(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def jvp(ctx, t):
        return t.sum()


x = torch.tensor([1.0, 2.0])
with fwAD.dual_level():
    xd = fwAD.make_dual(x, torch.tensor([1.0, 0.0]))
    print(Double.apply(x))
    for fn in (Double, TwoOut, Argmax, ColumnCopy, Same, Total):
        try:
            fn.apply(xd)
        except (RuntimeError, NotImplementedError) as e:
            print(fn.__name__, type(e).__name__, e)
    col = Column.apply(xd)
    print(col, fwAD.unpack_dual(col).tangent)
    Double.apply(xd)
