"""Gradient clipping, computed as PyTorch computes it (norm of the per-parameter norms)."""
from ... import grad_mode
from ...creation import tensor
from ...ops.comparison import clamp
from ...ops.reduction import norm
from ...ops.joining import stack
from ..._tensor import Tensor


def _as_list(parameters):
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


@grad_mode.no_grad()
def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scales all gradients together so that their joint norm is at most ``max_norm``.

    Args:
        parameters (Tensor or iterable of Tensors): tensors whose ``.grad`` is clipped in place.
        max_norm (float): the largest allowed norm.
        norm_type (float, optional): the p of the p-norm (``inf`` for the max norm). Defaults to 2.
        error_if_nonfinite (bool, optional): raise if the total norm is nan or inf.

    Returns:
        Tensor: the total norm before clipping.

    Example::

        >>> w = torch.tensor([3., 4.], requires_grad=True)
        >>> (w * w).sum().backward()            # grad = [6, 8], norm 10
        >>> nn.utils.clip_grad_norm_([w], 5.0)
        tensor(10.)
        >>> w.grad
        tensor([3.0000, 4.0000])
    """
    params = _as_list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    norm_type = float(norm_type)
    if not grads:
        return tensor(0.0)
    total = norm(stack([norm(g, norm_type) for g in grads]), norm_type)
    if error_if_nonfinite and bool(total.isnan() | total.isinf()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, "
                           "so it cannot be clipped. To disable this error and scale the gradients by the "
                           "non-finite norm anyway, set `error_if_nonfinite=False`")
    coef = clamp(max_norm / (total + 1e-6), max=1.0)
    for g in grads:
        g.mul_(coef)
    return total


@grad_mode.no_grad()
def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamps every gradient elementwise to ``[-clip_value, clip_value]`` in place."""
    clip_value = float(clip_value)
    for p in _as_list(parameters):
        if p.grad is not None:
            p.grad.clamp_(min=-clip_value, max=clip_value)
