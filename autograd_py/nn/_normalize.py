"""``F.normalize`` and ``F.rms_norm``: compositions of Tensor ops, as PyTorch's are (so their graphs
show the same nodes: ``DivBackward0`` over ``ExpandBackward0``/``ClampMinBackward0``, and
``MulBackward0`` over ``RsqrtBackward0``/``MeanBackward1``/``PowBackward0``)."""
from .. import dtypes
from ..ops.base import Tensor


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """Divides ``input`` by its ``p``-norm along ``dim`` (at least ``eps``): unit vectors along ``dim``.

    Args:
        input (Tensor): any shape.
        p (float, optional): the norm's exponent. Defaults to 2.
        dim (int or tuple, optional): the dim(s) to normalize over. Defaults to 1.
        eps (float, optional): the smallest divisor, against division by zero. Defaults to 1e-12.

    Returns:
        Tensor: ``input``'s shape, ``grad_fn=<DivBackward0>``.

    Example::

        >>> F.normalize(torch.tensor([[3., 4.]]))
        tensor([[0.6000, 0.8000]])
    """
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / denom
    from ..ops.pointwise import div
    return out.copy_(div(input, denom))


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """Root-mean-square normalization over the trailing ``normalized_shape`` dims:
    ``input * rsqrt(mean(input ** 2) + eps)``, times ``weight`` if given.

    Args:
        input (Tensor): ``(*, *normalized_shape)``.
        normalized_shape (int or list or torch.Size): the trailing dims.
        weight (Tensor, optional): elementwise scale of shape ``normalized_shape``.
        eps (float, optional): added to the mean square; ``None`` is the dtype's machine epsilon.

    Returns:
        Tensor: ``input``'s shape (``grad_fn=<MulBackward0>``).

    Example::

        >>> F.rms_norm(torch.tensor([[3., 4.]]), (2,))
        tensor([[0.8485, 1.1314]])
    """
    from ._layer_norm_ops import check_normalized_shape
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    check_normalized_shape(input, shape, weight=weight)
    if eps is None:
        eps = 1.1920928955078125e-07 if input.dtype == dtypes.float32 else 2.220446049250313e-16
    reduce = tuple(range(input.dim() - len(shape), input.dim()))
    rsqrt = input.pow(2).mean(reduce, keepdim=True).add_(eps).rsqrt()
    result = input.mul(rsqrt)
    return result.mul(weight) if isinstance(weight, Tensor) else result
