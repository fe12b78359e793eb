# A custom autograd.Function in forward mode: its jvp staticmethod gets one tangent per forward
# argument (zeros for a tensor without one, None for other arguments) and reads what forward gave
# ctx.save_for_forward as ctx.saved_tensors.
import torch
import torch.autograd.forward_ad as fwAD


class MulScale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, z):
        ctx.save_for_backward(x, y)
        ctx.save_for_forward(x, y)
        ctx.z = z
        return x * y * z

    @staticmethod
    def jvp(ctx, x_t, y_t, z_t):
        print("jvp got", x_t, y_t, z_t)
        x, y = ctx.saved_tensors
        return ctx.z * (y * x_t + x * y_t)

    @staticmethod
    def vjp(ctx, grad_out):
        x, y = ctx.saved_tensors
        return ctx.z * grad_out * y, ctx.z * grad_out * x, None


a = torch.tensor([1.0, 2.0], requires_grad=True, dtype=torch.double)
b = torch.tensor([3.0, 4.0], requires_grad=True, dtype=torch.double)
with fwAD.dual_level():
    a_dual = fwAD.make_dual(a, torch.tensor([1.0, 0.5], dtype=torch.double))
    d = MulScale.apply(a_dual, b, 4)
    print(d)
    print(fwAD.unpack_dual(d).tangent)
    d.sum().backward()
    print(a.grad, b.grad)


class SinCos(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x.sin(), x.cos()

    @staticmethod
    def jvp(ctx, x_t):
        (x,) = ctx.saved_tensors
        return x.cos() * x_t, -x.sin() * x_t


class Scaled(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.scale = scale
        ctx.set_materialize_grads(False)
        return x * scale

    @staticmethod
    def jvp(ctx, x_t, scale_t):
        print("scale_t", scale_t)
        return x_t * ctx.scale


x = torch.tensor([0.0, 1.0, 2.0])
with fwAD.dual_level():
    s, c = SinCos.apply(fwAD.make_dual(x, torch.ones(3)))
    print(fwAD.unpack_dual(s).tangent, fwAD.unpack_dual(c).tangent)
    out = Scaled.apply(fwAD.make_dual(x, torch.ones(3)), 2.0)
    print(out, fwAD.unpack_dual(out).tangent)
    # with set_materialize_grads(False), a tensor without a tangent gives None, not zeros
    out = Scaled.apply(fwAD.make_dual(x, torch.ones(3)), torch.full((3,), 3.0))
    print(fwAD.unpack_dual(out).tangent)
    # no input is dual: jvp is not called
    print(SinCos.apply(x)[0])
