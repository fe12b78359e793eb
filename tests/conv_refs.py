"""Direct NumPy references for convolution and pooling, used by the op table.

They loop over kernel offsets (one shifted, strided slice of the padded input each), a different
route from the im2col + tensordot of ``autograd_py.nn._conv_numpy``.
"""
import numpy as np


def _tup(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _out_len(n, k, s, p, d, ceil_mode=False):
    """PyTorch's pooling output length (floor or ceil; no window may start in the right padding)."""
    out = (n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


def _slices(offset, dilation, stride, out):
    return tuple(slice(o * d, o * d + s * (n - 1) + 1, s) for o, d, s, n in zip(offset, dilation, stride, out))


def np_conv(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """``F.conv1d``/``conv2d`` for batched or unbatched ``x``, padding an int, a tuple or 'same'/'valid'."""
    unbatched = x.ndim == w.ndim - 1
    x = x[None] if unbatched else x
    nd = w.ndim - 2
    st, dl = _tup(stride, nd), _tup(dilation, nd)
    if padding == "same":
        totals = [d * (k - 1) for k, d in zip(w.shape[2:], dl)]
        pads = [(t // 2, t - t // 2) for t in totals]
    elif padding == "valid":
        pads = [(0, 0)] * nd
    else:
        pads = [(p, p) for p in _tup(padding, nd)]
    x = np.pad(x, [(0, 0), (0, 0)] + pads)
    out_sp = [(n - d * (k - 1) - 1) // s + 1 for n, k, s, d in zip(x.shape[2:], w.shape[2:], st, dl)]
    cg, fg = x.shape[1] // groups, w.shape[0] // groups
    out = np.zeros((x.shape[0], w.shape[0], *out_sp))
    for offset in np.ndindex(*w.shape[2:]):
        patch = x[(Ellipsis,) + _slices(offset, dl, st, out_sp)]
        for g in range(groups):
            taps = w[g * fg:(g + 1) * fg][(slice(None), slice(None)) + offset]
            out[:, g * fg:(g + 1) * fg] += np.einsum("nc...,fc->nf...", patch[:, g * cg:(g + 1) * cg], taps)
    if b is not None:
        out += b.reshape((-1,) + (1,) * nd)
    return out[0] if unbatched else out


def _pool_setup(x, kernel, stride, padding, dilation, ceil_mode, fill):
    k = _tup(kernel, 2)
    s = k if stride is None else _tup(stride, 2)
    p, d = _tup(padding, 2), _tup(dilation, 2)
    out = [_out_len(n, *a, ceil_mode) for n, a in zip(x.shape[-2:], zip(k, s, p, d))]
    behind = [max(pp, (o - 1) * ss + dd * (kk - 1) + 1 - n - pp)
              for n, kk, ss, pp, dd, o in zip(x.shape[-2:], k, s, p, d, out)]
    lead = [(0, 0)] * (x.ndim - 2)
    padded = np.pad(x, lead + [(p[0], behind[0]), (p[1], behind[1])], constant_values=fill)
    return padded, k, s, p, d, out, behind


def np_max_pool2d(x, kernel, stride=None, padding=0, dilation=1, ceil_mode=False):
    """Max over every kernel offset, with indices as flat positions in the H*W plane (first max wins)."""
    padded, k, s, p, d, out, _ = _pool_setup(x, kernel, stride, padding, dilation, ceil_mode, -np.inf)
    best = np.full(x.shape[:-2] + tuple(out), -np.inf)
    index = np.zeros(best.shape, dtype=np.int64)
    for i, j in np.ndindex(*k):
        v = padded[(Ellipsis,) + _slices((i, j), d, s, out)]
        h = np.arange(out[0]) * s[0] - p[0] + i * d[0]
        w = np.arange(out[1]) * s[1] - p[1] + j * d[1]
        better = v > best
        best = np.where(better, v, best)
        index = np.where(better, h[:, None] * x.shape[-1] + w[None, :], index)
    return best, index


def np_avg_pool2d(x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                  divisor_override=None):
    """Sum over every kernel offset, divided by the count of the window within the padded input
    (or the input itself), or by ``divisor_override``."""
    padded, k, s, p, _, out, behind = _pool_setup(x, kernel, stride, padding, 1, ceil_mode, 0.0)
    if count_include_pad:
        within = np.ones((x.shape[-2] + 2 * p[0], x.shape[-1] + 2 * p[1]))
    else:
        within = np.pad(np.ones(x.shape[-2:]), [(p[0], p[0]), (p[1], p[1])])
    within = np.pad(within, [(0, behind[0] - p[0]), (0, behind[1] - p[1])])
    total = np.zeros(x.shape[:-2] + tuple(out))
    count = np.zeros(tuple(out))
    for i, j in np.ndindex(*k):
        sl = _slices((i, j), (1, 1), s, out)
        total += padded[(Ellipsis,) + sl]
        count += within[sl]
    return total / (divisor_override if divisor_override is not None else count)


def np_adaptive_avg_pool2d(x, size):
    """Mean of rows floor(o*H/oh) .. ceil((o+1)*H/oh) - 1, and likewise for columns."""
    size = _tup(size, 2)
    h, w = x.shape[-2:]
    out = np.zeros(x.shape[:-2] + size)
    for a, b in np.ndindex(*size):
        r0, r1 = (a * h) // size[0], -(-(a + 1) * h // size[0])
        c0, c1 = (b * w) // size[1], -(-(b + 1) * w // size[1])
        out[..., a, b] = x[..., r0:r1, c0:c1].mean(axis=(-2, -1))
    return out
