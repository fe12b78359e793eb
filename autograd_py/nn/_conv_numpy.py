"""NumPy kernels of convolution, for any number of spatial dims: im2col and one batched matmul.

Arrays are ``(N, C, *spatial)``; weights ``(out_channels, in_channels // groups, *kernel)``. The
im2col buffer ``(N, C, *kernel, *out)`` is one copy of a strided view of the padded input, laid out
for ``matmul`` with the weight viewed as ``(groups, F/groups, C/groups * prod(kernel))``. The input
gradient is a transposed convolution: a convolution of the gradient for small inputs, col2im
(a loop over the kernel, never over pixels) for large ones.
"""
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided


def pad_spatial(x, before, after=None, value=0):
    """Pads the spatial dims of ``x`` by ``before[i]`` in front and ``after[i]`` (default: the same) behind."""
    after = before if after is None else after
    if not any(before) and not any(after):
        return x
    lead = x.shape[:x.ndim - len(before)]
    out = np.full(lead + tuple(n + a + b for n, a, b in zip(x.shape[len(lead):], before, after)), value, x.dtype)
    out[(Ellipsis,) + tuple(slice(a, a + n) for n, a in zip(x.shape[len(lead):], before))] = x
    return out  # np.pad does the same, ten times slower on small arrays


def out_size(padded, kernel, stride, dilation):
    return tuple((n - d * (k - 1) - 1) // s + 1 for n, k, s, d in zip(padded, kernel, stride, dilation))


def im2col(xp, kernel, stride, dilation, out):
    """(..., *padded) -> (..., *kernel, *out): what each kernel element sees at each output position.

    A strided view (``sliding_window_view`` with the stride and dilation folded in, and the kernel
    axes first so that the copy reads whole rows), then one copy.
    """
    lead = xp.ndim - len(kernel)
    steps = xp.strides[lead:]
    view = as_strided(xp, xp.shape[:lead] + tuple(kernel) + tuple(out),
                      xp.strides[:lead] + tuple(a * d for a, d in zip(steps, dilation))
                      + tuple(a * s for a, s in zip(steps, stride)), writeable=False)
    return np.ascontiguousarray(view)


def _cols(x, kernel, stride, padding, dilation, groups):
    xp = pad_spatial(x, padding)
    out = out_size(xp.shape[2:], kernel, stride, dilation)
    cols = im2col(xp, kernel, stride, dilation, out)
    return cols.reshape(x.shape[0], groups, -1, math.prod(out)), out


def conv_forward(x, weight, stride, padding, dilation, groups):
    """The cross-correlation PyTorch calls convolution, without the bias."""
    f = weight.shape[0]
    cols, out = _cols(x, weight.shape[2:], stride, padding, dilation, groups)
    return np.matmul(weight.reshape(groups, f // groups, -1), cols).reshape((x.shape[0], f) + out)


def conv_weight_grad(x, grad, kernel, stride, padding, dilation, groups):
    """The gradient of ``conv_forward`` for its weight, shape (F, C/groups, *kernel)."""
    cols, _ = _cols(x, kernel, stride, padding, dilation, groups)
    n, f = grad.shape[:2]
    g = grad.reshape(n, groups, f // groups, -1)
    return np.matmul(g, cols.swapaxes(-1, -2)).sum(axis=0).reshape((f, x.shape[1] // groups) + tuple(kernel))


def conv_input_grad(grad, weight, in_spatial, stride, padding, dilation, groups):
    """The gradient of ``conv_forward`` for its input (a transposed convolution), shape (N, C, *in_spatial)."""
    columns = grad.shape[0] * weight.shape[1] * groups * math.prod(weight.shape[2:]) * math.prod(grad.shape[2:])
    # col2im loops over the kernel, which only pays off once there is enough to add per offset.
    run = _col2im if columns >= 40000 else _transposed_as_conv
    return run(grad, weight, tuple(in_spatial), tuple(stride), tuple(padding), tuple(dilation), groups)


def _transposed_as_conv(grad, weight, in_spatial, stride, padding, dilation, groups):
    """The stride-spread gradient, padded by the dilated kernel, convolved with the flipped weight
    whose in and out channels trade places; the result covers the padded input from its start."""
    nd = len(in_spatial)
    kernel = weight.shape[2:]
    if any(s > 1 for s in stride):
        spread = np.zeros(grad.shape[:2] + tuple((o - 1) * s + 1 for o, s in zip(grad.shape[2:], stride)), grad.dtype)
        spread[(Ellipsis,) + tuple(slice(None, None, s) for s in stride)] = grad
        grad = spread
    f, cg = weight.shape[:2]
    flipped = weight[(Ellipsis,) + (slice(None, None, -1),) * nd]
    turned = flipped.reshape((groups, f // groups, cg) + kernel).swapaxes(1, 2)
    turned = turned.reshape((groups * cg, f // groups) + kernel)
    full = conv_forward(grad, turned, (1,) * nd, tuple(d * (k - 1) for k, d in zip(kernel, dilation)), dilation, groups)
    # Positions past the last window (floor division of the output size) get no gradient.
    short = tuple(max(0, size + 2 * p - have) for size, p, have in zip(in_spatial, padding, full.shape[2:]))
    if any(short):
        full = pad_spatial(full, (0,) * nd, short)
    return full[(Ellipsis,) + tuple(slice(p, p + size) for p, size in zip(padding, in_spatial))]


def _col2im(grad, weight, in_spatial, stride, padding, dilation, groups):
    """The weight's transpose times the gradient gives each kernel element's share at each output
    position; each share is added back where that element read the (padded) input."""
    n, f = grad.shape[:2]
    out, kernel = grad.shape[2:], weight.shape[2:]
    w = weight.reshape(groups, f // groups, -1)
    shares = np.matmul(w.swapaxes(-1, -2), grad.reshape(n, groups, f // groups, -1))
    shares = shares.reshape((n, groups * weight.shape[1]) + kernel + out)
    # Large enough for every window, also those that reach past the padding (pooling's ceil mode).
    padded = tuple(max(size + 2 * p, (o - 1) * s + d * (k - 1) + 1)
                   for size, p, o, s, d, k in zip(in_spatial, padding, out, stride, dilation, kernel))
    acc = np.zeros(shares.shape[:2] + padded, grad.dtype)
    for offset in np.ndindex(*kernel):
        where = tuple(slice(k * d, k * d + s * (o - 1) + 1, s) for k, d, s, o in zip(offset, dilation, stride, out))
        acc[(Ellipsis,) + where] += shares[(slice(None), slice(None)) + offset]
    return acc[(Ellipsis,) + tuple(slice(p, p + size) for p, size in zip(padding, in_spatial))]
