"""``F.conv1d``/``F.conv2d``: one ``convolution`` primitive (``grad_fn=<ConvolutionBackward0>``).

Its backward is a second primitive, ``convolution_backward`` (``ConvolutionBackwardBackward0``),
whose own backward is again made of ``convolution`` and ``convolution_backward``, so gradients of
any order follow, as in PyTorch. The arithmetic is in ``_conv_numpy``.
"""
from .._warn import warn_once
from ..node import Node
from ..ops.base import Tensor, _make, as_view, grad_on, np, record, record_outputs
from ..ops.shape import expand, reshape, squeeze, unsqueeze
from . import _conv_numpy as K
from ._activation_ops import constant_pad_nd

_SAME_EVEN_WARNING = ("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded "
                      "copy of the input be created (Triggered internally at "
                      "/__w/pytorch/pytorch/aten/src/ATen/native/Convolution.cpp:1101.)")
_PARAMS = ("bias_sym_sizes_opt", "dilation", "groups", "output_padding", "padding", "stride", "transposed")


def _copy_params(node, src):
    for name in _PARAMS:
        setattr(node, name, getattr(src, name))
    return node


class ConvolutionBackward0(Node):
    saves = ("input", "weight")
    keeps = _PARAMS
    supports_batched = False

    def backward(self, grad):
        mask = tuple(fn is not None for fn, _ in self._next_functions)
        return convolution_backward(grad, self.saved("input"), self.saved("weight"), self, mask)

    def jvp(self, tangents, inputs, result):
        """Bilinear in input and weight, plus the bias: derivatives.yaml's ``convolution_jvp``."""
        # _convolution(input_t, weight_p) + _convolution(input_p, weight_t, bias_t), a missing
        # tangent a zero tensor when the tangent's graph shows
        from ..forward_mode import formula_tangents
        (x, w, b), (tx, tw, tb) = inputs, formula_tangents(tangents, inputs, result)
        tb = None if b is None else tb
        first = convolution(tx, w, None, self) if tx is not None else None
        if tw is not None:
            second = convolution(x, tw, tb, self)
        elif tb is not None:
            second = reshape(tb, (tb._data.shape[0],) + (1,) * (result._data.ndim - 2))
        else:
            return first
        return second if first is None else first + second


class ConvolutionBackwardBackward0(Node):
    """Differentiates (grad_input, grad_weight, grad_bias) for (grad_output, input, weight): each is
    linear in grad_output and in one of input/weight, so each gradient is again a convolution."""

    saves = ("grad_output", "input", "weight")
    keeps = _PARAMS[1:]
    num_outputs = 3
    supports_batched = False

    def backward(self, gg_input, gg_weight, gg_bias):
        grad, x, w = self.saved("grad_output"), self.saved("input"), self.saved("weight")
        needs = tuple(fn is not None for fn, _ in self._next_functions)
        g_grad = g_x = g_w = None
        if needs[0]:
            if gg_input is not None:
                g_grad = convolution(gg_input, w, gg_bias, self)
            if gg_weight is not None:
                term = convolution(x, gg_weight, gg_bias if g_grad is None else None, self)
                g_grad = term if g_grad is None else g_grad + term
            if g_grad is None and gg_bias is not None:
                shape = (gg_bias._data.shape[0],) + (1,) * (grad._data.ndim - 2)
                g_grad = expand(reshape(gg_bias, shape), grad._data.shape)
        if needs[1] and gg_weight is not None:
            g_x = convolution_backward(grad, x, gg_weight, self, (True, False, False))[0]
        if needs[2] and gg_input is not None:
            g_w = convolution_backward(grad, gg_input, w, self, (False, True, False))[1]
            if not g_w._requires_grad:
                g_w = _as_result_view(g_w._data, self.groups)
        return g_grad, g_x, g_w

    def jvp(self, tangents, inputs, result):
        """Each output is linear in grad_output and in one of input/weight (product rule)."""
        (grad, x, w), (tg, tx, tw) = inputs, tangents
        parts = [None, None, None]

        def add(i, term):
            parts[i] = term if parts[i] is None else parts[i] + term
        if tg is not None:
            for i, term in enumerate(convolution_backward(tg, x, w, self, self.mask)):
                if term is not None:
                    add(i, term)
        if tw is not None and self.mask[0]:
            add(0, convolution_backward(grad, x, tw, self, (True, False, False))[0])
        if tx is not None and self.mask[1]:
            add(1, convolution_backward(grad, tx, w, self, (False, True, False))[1])
        return tuple(p for p, wanted in zip(parts, self.mask) if wanted)


def _as_result_view(data, groups):
    """PyTorch's double backward gets this weight gradient as a view (``conv(ggI^T, gO^T)`` transposed
    back, or per-group results narrowed), so the engine never adds another gradient into it in place."""
    if groups == 1:
        base = _make(np.ascontiguousarray(data.swapaxes(0, 1)))
        return as_view(_make(base._data.swapaxes(0, 1)), base)
    base = _make(data)
    return as_view(_make(data.view()), base)


def convolution(input, weight, bias, params):
    """The batched, symmetric-padded convolution; ``params`` carries stride, padding, dilation, groups."""
    data = K.conv_forward(input._data, weight._data, params.stride, params.padding, params.dilation, params.groups)
    if bias is not None:
        data += bias._data.reshape((-1,) + (1,) * (data.ndim - 2))
    out = _make(data)
    if grad_on(input, weight, bias):
        node = _copy_params(ConvolutionBackward0(), params)
        node.bias_sym_sizes_opt = bias._data.shape if bias is not None else (0,)
        node.save(input=input, weight=weight)
        record(out, node, (input, weight, bias))
    return out


def convolution_backward(grad, input, weight, params, mask):
    """(grad_input, grad_weight, grad_bias) of ``convolution``, each computed only where ``mask`` asks."""
    g, x, w = grad._data, input._data, weight._data
    stride, padding, dilation, groups = params.stride, params.padding, params.dilation, params.groups
    outs = [None, None, None]
    if mask[0]:
        outs[0] = _make(K.conv_input_grad(g, w, x.shape[2:], stride, padding, dilation, groups).astype(x.dtype))
    if mask[1]:
        outs[1] = _make(K.conv_weight_grad(x, g, w.shape[2:], stride, padding, dilation, groups).astype(w.dtype))
    if mask[2]:
        outs[2] = _make(g.sum(axis=(0,) + tuple(range(2, g.ndim))))
    if grad_on(grad, input, weight):
        node = _copy_params(ConvolutionBackwardBackward0(), params)
        node.mask = tuple(bool(m) for m in mask)
        node.save(grad_output=grad, input=input, weight=weight)
        present = [o for o in outs if o is not None]
        record_outputs(present, node, (grad, input, weight))
        node.num_outputs = 3
        for i, o in enumerate(outs):
            if o is not None:
                o._output_nr = i
    return tuple(outs)


# ---------------------------------------------------------------------------- argument checks
class _Params:
    output_padding = None
    transposed = False
    bias_sym_sizes_opt = (0,)


def _as_list(value):
    return list(value) if isinstance(value, (tuple, list)) else [value]


def _expand(name, value, dim):
    values = _as_list(value)
    if len(values) == 1:
        return tuple(values) * dim
    if len(values) != dim:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dim} values to match the "
                           f"convolution dimensions, but got {name}={values}")
    return tuple(values)


def _sizes(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


def _check_types(input, weight, bias):
    from .._tensor import _C_TYPE_NAMES
    if input._data.dtype != weight._data.dtype:
        if input._data.dtype != np.float32:
            raise RuntimeError(f"expected scalar type {input.dtype.legacy_name[:-6]} but found "
                               f"{weight.dtype.legacy_name[:-6]}")
        raise RuntimeError(f"Input type (torch.{input.dtype.legacy_name}) and weight type "
                           f"(torch.{weight.dtype.legacy_name}) should be the same or input should be a MKLDNN "
                           "tensor and weight is a dense tensor")
    if bias is not None and bias._data.dtype != input._data.dtype:
        raise RuntimeError(f"Input type ({_C_TYPE_NAMES[input._data.dtype.name]}) and bias type "
                           f"({_C_TYPE_NAMES[bias._data.dtype.name]}) should be the same")


def _check_shapes(input, weight, bias, p):
    ws, xs = weight._data.shape, input._data.shape
    if any(n < 0 for n in p.padding):
        raise RuntimeError("negative padding is not supported")
    if any(n <= 0 for n in p.stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(n <= 0 for n in p.dilation):
        raise RuntimeError("non-positive dilation is not supported")
    if len(ws) != len(xs):
        raise RuntimeError(f"Expected {len(ws)}-dimensional input for {len(ws)}-dimensional weight {_sizes(ws)}, but "
                           f"got {len(xs)}-dimensional input of size {_sizes(xs)} instead")
    if ws[0] < p.groups:
        raise RuntimeError(f"Given groups={p.groups}, expected weight to be at least {p.groups} at dimension 0, but "
                           f"got weight of size {_sizes(ws)} instead")
    if ws[0] % p.groups:
        raise RuntimeError(f"Given groups={p.groups}, expected weight to be divisible by {p.groups} at dimension 0, "
                           f"but got weight of size [{_sizes(ws)}] instead")
    if xs[1] != ws[1] * p.groups:
        raise RuntimeError(f"Given groups={p.groups}, weight of size {_sizes(ws)}, expected input{_sizes(xs)} to have "
                           f"{ws[1] * p.groups} channels, but got {xs[1]} channels instead")
    if bias is not None and (bias._data.ndim != 1 or bias._data.shape[0] != ws[0]):
        raise RuntimeError(f"Given weight of size {_sizes(ws)}, expected bias to be 1-dimensional with {ws[0]} "
                           f"elements, but got bias of size {_sizes(bias._data.shape)} instead")
    padded = [n + 2 * q for n, q in zip(xs[2:], p.padding)]
    spans = [d * (k - 1) + 1 for k, d in zip(ws[2:], p.dilation)]
    if any(a < b for a, b in zip(padded, spans)):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel size: "
                           f"({' x '.join(map(str, spans))}). Kernel size can't be greater than actual input size")


def _same_padding(input, weight, p):
    """PyTorch's padding='same': half the dilated kernel on each side; an odd total pads the input
    itself by the extra one on the right (with a warning), leaving symmetric padding for the conv."""
    if any(s != 1 for s in p.stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    totals = [d * (k - 1) for k, d in zip(weight._data.shape[2:], p.dilation)]
    p.padding = tuple(t // 2 for t in totals)
    if all(t % 2 == 0 for t in totals):
        return input
    warn_once(_SAME_EVEN_WARNING, stacklevel=5)
    pad = []
    for t in reversed(totals):
        pad += [0, t - t // 2 - t // 2]
    return constant_pad_nd(input, pad, 0)


def _conv(input, weight, bias, stride, padding, dilation, groups, dim):
    """``conv{dim}d``: checks as PyTorch does, batches an unbatched input, runs ``convolution``."""
    name = f"conv{dim}d"
    for arg, pos, value in (("input", 1, input), ("weight", 2, weight)):
        if not isinstance(value, Tensor):
            raise TypeError(f"{name}(): argument '{arg}' (position {pos}) must be Tensor, not {type(value).__name__}")
    if input._data.ndim not in (dim + 1, dim + 2):
        raise RuntimeError(f"Expected {dim + 1}D (unbatched) or {dim + 2}D (batched) input to {name}, but got input "
                           f"of size: {_sizes(input._data.shape)}")
    if isinstance(padding, str) and padding not in ("same", "valid"):
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    unbatched = input._data.ndim == dim + 1
    if unbatched:
        input = unsqueeze(input, 0)
    nd = weight._data.ndim - 2
    if nd <= 0:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    p = _Params()
    p.groups = groups
    p.stride = _expand("stride", _expand_arg(stride, dim), nd)
    p.dilation = _expand("dilation", _expand_arg(dilation, dim), nd)
    p.output_padding = (0,) * nd
    same = padding == "same"
    p.padding = (0,) * nd if isinstance(padding, str) else _expand("padding", _expand_arg(padding, dim), nd)
    if same:
        input = _same_padding(input, weight, p)
    _check_types(input, weight, bias)
    _check_shapes(input, weight, bias, p)
    out = convolution(input, weight, bias, p)
    return squeeze(out, 0) if unbatched else out


def _expand_arg(value, dim):
    """The Python binding turns a single int into ``dim`` copies (``tuple of ints stride = 1``)."""
    return (value,) * dim if isinstance(value, int) else value


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """A 1-D convolution (cross-correlation) over ``(N, C_in, L)`` or unbatched ``(C_in, L)`` inputs.

    Args:
        input (Tensor): the input.
        weight (Tensor): filters of shape ``(C_out, C_in / groups, kW)``.
        bias (Tensor, optional): shape ``(C_out)``. Defaults to ``None``.
        stride (int or tuple, optional): step between windows. Defaults to 1.
        padding (int, tuple or str, optional): zeros added on both sides, or ``'valid'`` (none) or
            ``'same'`` (output as long as the input; stride 1 only). Defaults to 0.
        dilation (int or tuple, optional): spacing between kernel elements. Defaults to 1.
        groups (int, optional): split the channels into this many independent groups. Defaults to 1.

    Returns:
        Tensor: ``(N, C_out, L_out)`` with ``grad_fn=<ConvolutionBackward0>``.

    Example::

        >>> F.conv1d(torch.ones(1, 1, 4), torch.ones(1, 1, 2))
        tensor([[[2., 2., 2.]]])
    """
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """A 2-D convolution (cross-correlation) over ``(N, C_in, H, W)`` or unbatched ``(C_in, H, W)`` inputs.

    Args:
        input (Tensor): the input.
        weight (Tensor): filters of shape ``(C_out, C_in / groups, kH, kW)``.
        bias (Tensor, optional): shape ``(C_out)``. Defaults to ``None``.
        stride (int or tuple, optional): step between windows. Defaults to 1.
        padding (int, tuple or str, optional): zeros added on both sides, or ``'valid'`` (none) or
            ``'same'`` (output as large as the input; stride 1 only). Defaults to 0.
        dilation (int or tuple, optional): spacing between kernel elements. Defaults to 1.
        groups (int, optional): split the channels into this many independent groups. Defaults to 1.

    Returns:
        Tensor: ``(N, C_out, H_out, W_out)`` with ``grad_fn=<ConvolutionBackward0>``.

    Example::

        >>> F.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 2, 2)).shape
        torch.Size([1, 1, 2, 2])
    """
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)
