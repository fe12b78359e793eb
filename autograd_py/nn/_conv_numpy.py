"""NumPy kernels of convolution, for any number of spatial dims: im2col windows and tensordot.

Arrays are ``(N, C, *spatial)``; weights ``(out_channels, in_channels // groups, *kernel)``. The
three kernels are the forward, the gradient for the input (a convolution of the stride-dilated
gradient with the flipped, transposed weight) and the gradient for the weight (the forward's
windows contracted with the gradient). Pooling uses the same windows.
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def pad_spatial(x, before, after=None, value=0):
    """Pads the spatial dims of ``x`` by ``before[i]`` in front and ``after[i]`` (default: the same) behind."""
    after = before if after is None else after
    if not any(before) and not any(after):
        return x
    widths = [(0, 0)] * (x.ndim - len(before)) + list(zip(before, after))
    return np.pad(x, widths, constant_values=value)


def windows(x, kernel, stride, dilation):
    """A view of ``x`` (N, C, *S) as (N, C, *out, *kernel): every window the kernel visits."""
    nd = len(kernel)
    span = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    view = sliding_window_view(x, span, axis=tuple(range(x.ndim - nd, x.ndim)))
    pick = (Ellipsis,) + tuple(slice(None, None, s) for s in stride) + tuple(slice(None, None, d) for d in dilation)
    return view[pick]


def _contract(cols, weight, groups):
    """sum over (c, k) of cols (N, C, *O, *K) times weight (F, C/groups, *K) -> (N, F, *O)."""
    nd = weight.ndim - 2
    col_axes = [1] + list(range(2 + nd, 2 + 2 * nd))
    w_axes = list(range(1, 2 + nd))
    if groups == 1:
        return np.moveaxis(np.tensordot(cols, weight, axes=(col_axes, w_axes)), -1, 1)
    cg, fg = weight.shape[1], weight.shape[0] // groups
    parts = [np.tensordot(cols[:, g * cg:(g + 1) * cg], weight[g * fg:(g + 1) * fg], axes=(col_axes, w_axes))
             for g in range(groups)]
    return np.moveaxis(np.concatenate(parts, axis=-1), -1, 1)


def conv_forward(x, weight, stride, padding, dilation, groups):
    """The cross-correlation PyTorch calls convolution, without the bias."""
    cols = windows(pad_spatial(x, padding), weight.shape[2:], stride, dilation)
    return np.ascontiguousarray(_contract(cols, weight, groups))


def conv_input_grad(grad, weight, in_spatial, stride, padding, dilation, groups):
    """The gradient of ``conv_forward`` for its input (a transposed convolution), shape (N, C, *in_spatial)."""
    nd = len(in_spatial)
    kernel = weight.shape[2:]
    if any(s > 1 for s in stride):
        spread = np.zeros(grad.shape[:2] + tuple((o - 1) * s + 1 for o, s in zip(grad.shape[2:], stride)), grad.dtype)
        spread[(Ellipsis,) + tuple(slice(None, None, s) for s in stride)] = grad
        grad = spread
    f, cg = weight.shape[:2]
    fg = f // groups
    # (F, C/g, *K) -> (C, F/g, *K), flipped: each input channel becomes an output channel.
    flipped = weight[(Ellipsis,) + (slice(None, None, -1),) * nd]
    turned = flipped.reshape((groups, fg, cg) + kernel).swapaxes(1, 2).reshape((groups * cg, fg) + kernel)
    full = conv_forward(grad, turned, (1,) * nd, tuple(d * (k - 1) for k, d in zip(kernel, dilation)), dilation,
                        groups)
    # ``full`` covers the padded input from its start; rows no window reached get no gradient.
    fit = []
    for size, have, p in zip(in_spatial, full.shape[2:], padding):
        fit.append((have, size + 2 * p, p))
    short = [max(0, want - have) for have, want, _ in fit]
    if any(short):
        full = pad_spatial(full, (0,) * nd, short)
    crop = (Ellipsis,) + tuple(slice(p, p + size) for (_, _, p), size in zip(fit, in_spatial))
    return np.ascontiguousarray(full[crop])


def conv_weight_grad(x, grad, kernel, stride, padding, dilation, groups):
    """The gradient of ``conv_forward`` for its weight, shape (F, C/groups, *kernel)."""
    nd = len(kernel)
    cols = windows(pad_spatial(x, padding), kernel, stride, dilation)
    axes = [0] + list(range(2, 2 + nd))
    if groups == 1:
        return np.tensordot(grad, cols, axes=(axes, axes))
    cg, fg = x.shape[1] // groups, grad.shape[1] // groups
    return np.concatenate([np.tensordot(grad[:, g * fg:(g + 1) * fg], cols[:, g * cg:(g + 1) * cg], axes=(axes, axes))
                           for g in range(groups)], axis=0)
