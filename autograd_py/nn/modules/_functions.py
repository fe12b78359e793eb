"""``BackwardHookFunction``: the identity Function a Module's full backward hooks attach to."""
from ...autograd.function import Function


class BackwardHookFunction(Function):
    """Returns its inputs unchanged, so their gradients pass one node PyTorch can hook.

    A Module with full backward hooks wraps its inputs and its outputs in it; that is why such a
    module's output prints ``grad_fn=<BackwardHookFunctionBackward>``.
    """

    @staticmethod
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[arg for arg in args if not arg.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *args):
        return args
