"""1-D pooling, as PyTorch runs it: the 2-D pooling of the input with a height-1 axis added, after
the 1-D argument checks (``SqueezeBackward1 -> MaxPool2DWithIndicesBackward0 -> UnsqueezeBackward0``)."""
from ..ops.shape import squeeze, unsqueeze
from ._adaptive_pool_ops import adaptive_avg_pool2d
from ._pool_ops import avg_pool2d, max_pool2d_with_indices


def _one(value, what, message):
    values = list(value) if isinstance(value, (tuple, list)) else [value]
    if len(values) != 1:
        raise RuntimeError(message.format(what=what, n=len(values)))
    return values[0]


def _check_dims(input, op):
    if input.dim() not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {op})")


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """1-D max pooling over ``(N, C, L)`` or ``(C, L)``; see ``max_pool2d`` for the arguments.

    Example::

        >>> F.max_pool1d(torch.tensor([[1., 3., 2., 0.]]), 2, return_indices=True)
        (tensor([[3., 2.]]), tensor([[1, 2]]))
    """
    shape = tuple(input.shape)
    if len(shape) not in (2, 3) or 0 in shape[-2:]:
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           "input, but got:[" + ", ".join(map(str, shape)) + "]")
    size_msg = "max_pool1d() {what} must be an int, list of ints or tuple of ints of size 1 but got size {n}"
    k = _one(kernel_size, "kernel_size", size_msg)
    stride = None if stride is None or (isinstance(stride, (tuple, list)) and not stride) else stride
    s = k if stride is None else _one(stride, "stride", "max_pool1d() {what} must be None, an int, list of ints, "
                                                        "or tuple of ints of size 1 but got size {n}")
    p = _one(padding, "padding", "max_pool1d() {what} must be an int, list of ints, or tuple of ints of size 1 but "
                                 "got size {n}")
    d = _one(dilation, "dilation", size_msg)
    if k <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    out = (shape[-1] + 2 * p - d * (k - 1) - 1) // s + 1
    if out <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")
    values, indices = max_pool2d_with_indices(unsqueeze(input, -2), (1, k), (1, s), (0, p), (1, d), ceil_mode)
    values, indices = squeeze(values, -2), squeeze(indices, -2)
    return (values, indices) if return_indices else values


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """1-D average pooling over ``(N, C, L)`` or ``(C, L)``; see ``avg_pool2d`` for the arguments.

    Example::

        >>> F.avg_pool1d(torch.tensor([[1., 3., 2., 0.]]), 2)
        tensor([[2., 1.]])
    """
    _check_dims(input, "avg_pool1d")
    msg = "avg_pool1d() argument '{what}' should contain one int (got {n})"
    k = _one(kernel_size, "kernel_size", msg)
    s = k if stride is None else _one(stride, "stride", msg)
    p = _one(padding, "padding", msg)
    return squeeze(avg_pool2d(unsqueeze(input, -2), (1, k), (1, s), (0, p), ceil_mode, count_include_pad), -2)


def adaptive_avg_pool1d(input, output_size):
    """Averages ``(N, C, L)`` or ``(C, L)`` down to length ``output_size``, PyTorch's windows.

    Example::

        >>> F.adaptive_avg_pool1d(torch.tensor([[1., 3., 2., 0., 5.]]), 2)
        tensor([[2.0000, 2.3333]])
    """
    _check_dims(input, "adaptive_avg_pool1d")
    size = _one(output_size, "output_size", "adaptive_avg_pool1d() argument '{what}' should contain one int (got {n})")
    return squeeze(adaptive_avg_pool2d(unsqueeze(input, -2), (1, size)), -2)

