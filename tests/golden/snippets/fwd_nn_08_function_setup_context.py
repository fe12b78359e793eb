# The torch.func style of autograd.Function: forward without ctx, setup_context(ctx, inputs,
# output), and the vmap attributes; forward mode works the same way.
import torch
import torch.autograd.forward_ad as fwAD


class Exp(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x, scale=2.0):
        return x.exp() * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, scale = inputs
        print("inputs:", len(inputs), scale)
        ctx.save_for_backward(output)
        ctx.save_for_forward(output)

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * out, None

    @staticmethod
    def jvp(ctx, x_t, scale_t):
        (out,) = ctx.saved_tensors
        return x_t * out


class Square(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_forward(inputs[0])

    @staticmethod
    def jvp(ctx, x_t):
        (x,) = ctx.saved_tensors
        return 2 * x * x_t

    @staticmethod
    def vmap(info, in_dims, x):
        return x * x, in_dims[0]


print(Exp.generate_vmap_rule, Square.generate_vmap_rule, torch.autograd.Function.generate_vmap_rule)
x = torch.tensor([0.0, 1.0], requires_grad=True)
with fwAD.dual_level():
    xd = fwAD.make_dual(x, torch.tensor([1.0, 2.0]))
    y = Exp.apply(xd)
    print(y, fwAD.unpack_dual(y).tangent)
    y = Exp.apply(xd, 3.0)
    print(fwAD.unpack_dual(y).tangent)
    z = Square.apply(xd)
    print(fwAD.unpack_dual(z).tangent)
    y.sum().backward()
    print(x.grad)
try:
    torch.autograd.Function.vmap(None, (0,), x)
except NotImplementedError as e:
    print(e)
