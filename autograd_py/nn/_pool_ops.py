"""``F.max_pool2d`` and ``F.avg_pool2d`` with PyTorch's nodes.

Each pooling has a backward primitive (``MaxPool2DWithIndicesBackwardBackward0``, ...) whose own
backward pools again, so ``create_graph`` works; as in PyTorch, the gradient of a pooling backward
for the pooled input itself is zero. Inputs are ``(C, H, W)`` or ``(N, C, H, W)``.
"""
from ..node import Node
from ..ops.base import _make, grad_on, np, record, written_in_place
from ..ops.gather import gather
from ..ops.shape import reshape
from . import _conv_numpy as K

_POOL_PARAMS = ("ceil_mode", "dilation", "kernel_size", "padding", "stride")


def _pair(value, op, what, allow_empty=False):
    values = list(value) if isinstance(value, (tuple, list)) else [value]
    if allow_empty and not values:
        return None
    if len(values) == 1:
        return (values[0], values[0])
    if len(values) == 2:
        return tuple(values)
    if what == "kernel_size" or what == "padding":
        raise RuntimeError(f"{op}: {what} must either be a single int, or a tuple of two ints")
    if what == "stride":
        raise RuntimeError(f"{op}: stride must either be omitted, a single int, or a tuple of two ints")
    raise RuntimeError(f"{op}: dilation must be either a single int, or a tuple of two ints")


def _shown(value):
    """An int-list argument as the node shows it: an int doubled, an omitted stride as ()."""
    if value is None:
        return ()
    return (value, value) if isinstance(value, int) else tuple(value)


def _out_size(size, k, s, p, d, ceil_mode):
    """pooling_output_shape: floor (or ceil) division, and no window may start in the right padding."""
    if s == 0:
        raise RuntimeError("stride should not be zero")
    if p < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
    if p > int((d * (k - 1) + 1) / 2):  # C++ division, toward zero
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} "
                           f"and dilation={d}")
    out = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _shape_check(x, kernel, stride, dilation, out):
    if kernel[0] <= 0 or kernel[1] <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kernel[0]} kW: {kernel[1]}")
    if stride[0] <= 0 or stride[1] <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {stride[0]} dW: {stride[1]}")
    if dilation[0] <= 0 or dilation[1] <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dilation[0]} "
                           f"dilationW: {dilation[1]}")
    shape = x.shape
    if x.ndim not in (3, 4) or 0 in shape[-3:]:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:"
                           "[" + ", ".join(map(str, shape)) + "]")
    if out[0] < 1 or out[1] < 1:
        c, h, w = shape[-3:]
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{out[0]}x{out[1]}). "
                           "Output size is too small")


def _geometry(x, kernel, stride, padding, dilation, ceil_mode):
    out = tuple(_out_size(n, k, s, p, d, ceil_mode)
                for n, k, s, p, d in zip(x.shape[-2:], kernel, stride, padding, dilation))
    _shape_check(x, kernel, stride, dilation, out)
    # Enough padding behind for the last window, which in ceil mode may reach past the input's padding.
    behind = tuple(max(p, (o - 1) * s + d * (k - 1) + 1 - n - p)
                   for n, k, s, p, d, o in zip(x.shape[-2:], kernel, stride, padding, dilation, out))
    return out, behind


# ---------------------------------------------------------------------------- max_pool2d
def _max_pool(x, kernel, stride, padding, dilation, out, behind):
    """Max of each window and its flat index into the (unpadded) H*W plane.

    PyTorch's loop, run for all windows at once, one kernel element at a time: the index starts at
    the window's first real element and moves only to a strictly larger value or to a NaN, so ties
    keep the first, the last NaN wins and padding (the lowest value) never does.
    """
    floating = x.dtype.kind == "f"
    low = -np.inf if floating else np.iinfo(x.dtype).min
    xp = K.pad_spatial(x, padding, behind, value=low)
    rows, cols = (np.arange(o) * s - p for o, s, p in zip(out, stride, padding))
    first_h = rows + dilation[0] * np.maximum(0, -(rows // dilation[0]))
    first_w = cols + dilation[1] * np.maximum(0, -(cols // dilation[1]))
    width = x.shape[-1]
    best = np.full(x.shape[:-2] + out, low, x.dtype)
    local = np.full(best.shape, -1, np.int32)  # the kernel element holding the max; -1: none yet
    nan_possible = floating and np.isnan(x).any()
    for k, (kh, kw) in enumerate(np.ndindex(*kernel)):
        h0, w0 = kh * dilation[0], kw * dilation[1]
        value = xp[..., h0:h0 + stride[0] * (out[0] - 1) + 1:stride[0], w0:w0 + stride[1] * (out[1] - 1) + 1:stride[1]]
        better = value > best
        if nan_possible:
            better |= np.isnan(value)
        np.copyto(best, value, where=better)
        np.putmask(local, better, k)
    # Each kernel element's offset in the plane, and a last 0 that local == -1 picks (then unused).
    offsets = np.array([kh * dilation[0] * width + kw * dilation[1] for kh, kw in np.ndindex(*kernel)] + [0])
    start = rows[:, None] * width + cols[None, :]
    first = first_h[:, None] * width + first_w[None, :]
    return best, np.where(local < 0, first, start + offsets[local])


class MaxPool2DWithIndicesBackward0(Node):
    saves = ("self", "result1")
    keeps = _POOL_PARAMS
    supports_batched = False

    def backward(self, grad):
        return max_pool2d_with_indices_backward(grad, self.saved("self"), self.saved("result1"))

    def jvp(self, tangents, inputs, result):
        return _pick(tangents[0], self.indices)


class MaxPool2DWithIndicesBackwardBackward0(Node):
    saves = ("indices",)
    supports_batched = False

    def backward(self, grad):
        return _pick(grad, self.saved("indices")), zeros_for_self(self.input_shape, grad._data.dtype)

    def jvp(self, tangents, inputs, result):
        # Linear in grad_output; the pooled input only chose the indices.
        return max_pool2d_with_indices_backward(tangents[0], inputs[1], self.indices) if tangents[0] is not None \
            else None


def _pick(values, indices):
    """The element of each ``H * W`` plane of ``values`` at each of ``indices``: a max pool's
    tangent, and the gradient of its backward."""
    flat = reshape(values, values._data.shape[:-2] + (-1,))
    picked = gather(flat, -1, reshape(indices, indices._data.shape[:-2] + (-1,)))
    return reshape(picked, indices._data.shape)


def zeros_for_self(shape, dtype):
    """The pool double backwards' ``zeros_like(self)``: PyTorch's comes back at version 1 (filled by a
    ``zero_()``), so a gradient added into it in place shows version 2."""
    return written_in_place(_make(np.zeros(shape, dtype)))


def max_pool2d_with_indices_backward(grad, input, indices):
    """Routes each output's gradient to the input element it picked (summing where windows overlap)."""
    g, idx, shape = grad._data, indices._data, input._data.shape
    plane = shape[-2] * shape[-1]
    planes = int(np.prod(shape[:-2], dtype=np.int64))
    offsets = (np.arange(planes) * plane).reshape(shape[:-2] + (1, 1))
    # bincount takes NumPy's index type only: int32 in Pyodide (wasm32), where int64 indices raise
    summed = np.bincount((idx + offsets).reshape(-1).astype(np.intp, copy=False), weights=g.reshape(-1),
                         minlength=planes * plane)
    out = _make(summed.reshape(shape).astype(g.dtype))
    if grad_on(grad, input):
        node = MaxPool2DWithIndicesBackwardBackward0()
        node.save(indices=indices)
        node.input_shape, node.indices = shape, indices
        record(out, node, (grad, input))
    return out


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    """``max_pool2d`` returning ``(values, indices)``; see ``max_pool2d``."""
    op = "max_pool2d"
    stride_arg, padding_arg, dilation_arg = stride, padding, dilation
    kernel = _pair(kernel_size, op, "kernel_size")
    stride = _pair(stride, op, "stride", allow_empty=True) if stride is not None else None
    stride = kernel if stride is None else stride
    padding, dilation = _pair(padding, op, "padding"), _pair(dilation, op, "dilation")
    x = input._data
    if x.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    out, behind = _geometry(x, kernel, stride, padding, dilation, ceil_mode)
    values, flat_index = _max_pool(x, kernel, stride, padding, dilation, out, behind)
    result, indices = _make(np.ascontiguousarray(values)), _make(flat_index.astype(np.int64))
    if grad_on(input):
        node = MaxPool2DWithIndicesBackward0()
        node.kernel_size, node.stride = _shown(kernel_size), _shown(stride_arg)
        node.padding, node.dilation = _shown(padding_arg), _shown(dilation_arg)
        node.ceil_mode, node.indices = bool(ceil_mode), indices
        node.save(self=input, result1=indices)
        record(result, node, (input,))
    return (result, indices) if return_indices else result


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """2-D max pooling over ``(N, C, H, W)`` or ``(C, H, W)`` (``grad_fn=<MaxPool2DWithIndicesBackward0>``).

    Args:
        input (Tensor): the input.
        kernel_size (int or tuple): the window size.
        stride (int or tuple, optional): step between windows. Defaults to ``kernel_size``.
        padding (int or tuple, optional): implicit ``-inf`` on both sides, at most half the window. Defaults to 0.
        dilation (int or tuple, optional): spacing between window elements. Defaults to 1.
        ceil_mode (bool, optional): round the output size up, so a partial last window counts. Defaults to False.
        return_indices (bool, optional): also return each maximum's flat index in its ``H * W`` plane.

    Example::

        >>> F.max_pool2d(torch.tensor([[[[1., 2.], [4., 3.]]]]), 2, return_indices=True)
        (tensor([[[[4.]]]]), tensor([[[[2]]]]))
    """
    return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


# ---------------------------------------------------------------------------- avg_pool2d
def _divisors(x, kernel, stride, padding, out, count_include_pad, divisor_override):
    """Each window's divisor: its size clipped to the padded input, or to the input without padding."""
    if divisor_override is not None:
        return divisor_override
    sizes = []
    for n, k, s, p, o in zip(x.shape[-2:], kernel, stride, padding, out):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, n + p)
        sizes.append(end - start if count_include_pad else np.minimum(end, n) - np.maximum(start, 0))
    return sizes[0][:, None] * sizes[1][None, :]


def _avg_pool(x, kernel, stride, padding, out, behind, divisor):
    summed = K.im2col(K.pad_spatial(x, padding, behind), kernel, stride, (1, 1), out).sum(axis=(-4, -3))
    if x.dtype.kind == "f":
        return (summed / np.asarray(divisor, dtype=x.dtype)).astype(x.dtype)
    return np.trunc(summed / divisor).astype(x.dtype)


def _avg_spread(g, in_shape, kernel, stride, padding, divisor):
    """The transpose of ``_avg_pool``: each output's share spread over its window."""
    share = (g / np.asarray(divisor, dtype=g.dtype)).astype(g.dtype)
    lead = share.shape[:-2]
    flat = share.reshape((-1, 1) + share.shape[-2:])
    ones = np.ones((1, 1) + tuple(kernel), dtype=g.dtype)
    spread = K.conv_input_grad(flat, ones, in_shape[-2:], stride, padding, (1, 1), 1)
    return spread.reshape(lead + tuple(in_shape[-2:]))


class AvgPool2DBackward0(Node):
    saves = ("self",)
    keeps = ("ceil_mode", "count_include_pad", "divisor_override", "kernel_size", "padding", "stride")
    supports_batched = False

    def backward(self, grad):
        return avg_pool2d_backward(grad, self.saved("self"), self)

    def jvp(self, tangents, inputs, result):
        return _avg_pool2d(tangents[0], self)


class AvgPool2DBackwardBackward0(Node):
    supports_batched = False

    def backward(self, grad):
        return _avg_pool2d(grad, self), zeros_for_self(self.input_shape, grad._data.dtype)

    def jvp(self, tangents, inputs, result):
        return avg_pool2d_backward(tangents[0], inputs[1], self) if tangents[0] is not None else None


def avg_pool2d_backward(grad, input, params):
    out = _make(_avg_spread(grad._data, input._data.shape, *params.geometry, params.divisor))
    if grad_on(grad, input):
        node = AvgPool2DBackwardBackward0()
        node.__dict__.update(params.__dict__)
        node.input_shape = input._data.shape
        record(out, node, (grad, input))
    return out


def _avg_pool2d(input, params):
    x = input._data
    out = _make(_avg_pool(x, *params.geometry, params.out, params.behind, params.divisor))
    if grad_on(input):
        node = AvgPool2DBackward0()
        node.__dict__.update(params.__dict__)
        node.save(self=input)
        record(out, node, (input,))
    return out


class _AvgParams:
    pass


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """2-D average pooling over ``(N, C, H, W)`` or ``(C, H, W)`` (``grad_fn=<AvgPool2DBackward0>``).

    Args:
        input (Tensor): the input.
        kernel_size (int or tuple): the window size.
        stride (int or tuple, optional): step between windows. Defaults to ``kernel_size``.
        padding (int or tuple, optional): implicit zeros on both sides, at most half the window. Defaults to 0.
        ceil_mode (bool, optional): round the output size up. Defaults to False.
        count_include_pad (bool, optional): count the zero padding in the divisor. Defaults to True.
        divisor_override (int, optional): divide every window by this instead.

    Example::

        >>> F.avg_pool2d(torch.tensor([[[[1., 2.], [4., 3.]]]]), 2)
        tensor([[[[2.5000]]]])
    """
    op = "avg_pool2d"
    stride_arg, padding_arg = stride, padding
    kernel = _pair(kernel_size, op, "kernel_size")
    stride = _pair(stride, op, "stride", allow_empty=True) if stride is not None else None
    stride = kernel if stride is None else stride
    padding = _pair(padding, op, "padding")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    x = input._data
    if x.ndim < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(x.ndim, 1)}, "
                         f"{max(x.ndim, 1) - 1}], but got -3)")
    out, behind = _geometry(x, kernel, stride, padding, (1, 1), ceil_mode)
    p = _AvgParams()
    p.geometry = kernel, stride, padding
    p.kernel_size, p.stride, p.padding = _shown(kernel_size), _shown(stride_arg), _shown(padding_arg)
    p.ceil_mode = bool(ceil_mode)
    p.count_include_pad, p.divisor_override = bool(count_include_pad), divisor_override
    p.out, p.behind = out, behind
    p.divisor = _divisors(x, kernel, stride, padding, out, count_include_pad, divisor_override)
    return _avg_pool2d(input, p)
