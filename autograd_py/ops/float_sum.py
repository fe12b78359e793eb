"""float32 sums of short rows in PyTorch's CPU order (its SumKernel's), so that, say, ``tan`` of a sum
agrees with PyTorch's to the last digit.

PyTorch adds a contiguous row of fewer than 16 floats one element at a time from 0, in an order
its kernel fixes: under 8 elements as four interleaved partial sums (the ones past the first four
go into the first), else the elements past one 8-lane vector first, then the vector's lanes.
Longer rows (up to _LONG) go through its cascade of 8-lane vector sums (_cascade).
"""
import math

import numpy as np

_F32 = np.float32
_SHORT = 16  # rows from 16 on go through its cascade of 8-lane vector sums (_cascade)
_LONG = 1024  # past this the cascade's Python loop costs too much: the float64 sum rounded once instead
_LANES = 8  # PyTorch's sum kernel is the AVX2 build's (no AVX512 one is registered)
_orders = {}


def _order(n):
    """The order in which PyTorch adds a row of ``n`` (< 16) floats."""
    order = _orders.get(n)
    if order is None:
        if n < 4:
            order = list(range(n))
        elif n < 8:
            order = [0] + list(range(4, n)) + [1, 2, 3]
        else:
            order = list(range(8, n)) + list(range(8))
        order = _orders[n] = np.array(order, np.intp)
    return order


def trailing_sum(data, dims, keepdim, mean=False):
    """The float32 sum (or mean) of C-contiguous ``data`` over its trailing ``dims`` as PyTorch adds
    it, or None where this order is not PyTorch's (other dims, other layouts, long rows)."""
    nd = data.ndim
    if data.dtype != _F32 or not data.size or not dims or not data.flags.c_contiguous:
        return None
    if tuple(dims) != tuple(range(nd - len(dims), nd)) and 1 in data.shape:
        # dims of size 1 change nothing in memory: ``(n, 1).sum(0)`` is a row of n floats (a
        # linear layer's bias gradient for one output)
        kept = [i for i in range(nd) if data.shape[i] != 1]
        summed = tuple(kept.index(d) for d in dims if data.shape[d] != 1)
        out = trailing_sum(data.reshape([data.shape[i] for i in kept]), summed, False, mean) if summed else None
        if out is None:
            return None
        full = [1 if (i in dims or data.shape[i] == 1) else data.shape[i] for i in range(nd)]
        out = out.reshape(full)
        return out if keepdim else out.reshape([n for i, n in enumerate(full) if i not in dims])
    if tuple(dims) != tuple(range(nd - len(dims), nd)):
        return None
    kept = data.shape[:nd - len(dims)]
    n = math.prod(data.shape[nd - len(dims):])
    if n > _LONG:
        return None
    with np.errstate(over="ignore", invalid="ignore"):
        if n >= _SHORT:
            out = _cascade(data.reshape(kept + (n,)))
        else:
            rows = data.reshape(kept + (n,))[..., _order(n)]
            out = np.add.accumulate(rows, axis=-1)[..., -1] + _F32(0)  # from 0: a -0.0 sum is +0.0
        if mean:
            out = out / _F32(n)
    out = np.asarray(out, _F32)
    return out.reshape(kept + (1,) * len(dims)) if keepdim else out


def _multi_row_sum(load, size, shape):
    """PyTorch's multi_row_sum: ``size`` loads added into four levels of accumulators, each level
    passed on to the next every 2**level_power loads, so only sums of similar size meet."""
    level_power = max(4, (int(size - 1).bit_length() if size > 1 else 0) // 4)
    step, mask = 1 << level_power, (1 << level_power) - 1
    acc = [np.zeros(shape, _F32) for _ in range(4)]
    i = 0
    while i + step <= size:
        for _ in range(step):
            acc[0] += load(i)
            i += 1
        for j in range(1, 4):
            acc[j] += acc[j - 1]
            acc[j - 1][...] = 0
            if i & (mask << (j * level_power)):
                break
    while i < size:
        acc[0] += load(i)
        i += 1
    for j in range(1, 4):
        acc[0] += acc[j]
    return acc[0]


def _cascade(rows):
    """PyTorch's vectorized_inner_sum of float32 ``rows`` (..., n), n >= 16: the row as 8-lane
    vectors summed by row_sum (four interleaved multi_row_sum rows, the leftover vectors into the
    first, then the other three), the elements past the last vector from 0, then the lanes."""
    n = rows.shape[-1]
    nvec = n // _LANES
    vecs = rows[..., :nvec * _LANES].reshape(rows.shape[:-1] + (nvec, _LANES))
    size_ilp = nvec // 4
    quads = vecs[..., :size_ilp * 4, :].reshape(rows.shape[:-1] + (size_ilp, 4, _LANES))
    partial = _multi_row_sum(lambda i: quads[..., i, :, :], size_ilp, rows.shape[:-1] + (4, _LANES))
    for i in range(size_ilp * 4, nvec):
        partial[..., 0, :] += vecs[..., i, :]
    for k in range(1, 4):
        partial[..., 0, :] += partial[..., k, :]
    out = np.zeros(rows.shape[:-1], _F32)
    for k in range(nvec * _LANES, n):
        out += rows[..., k]
    for k in range(_LANES):
        out += partial[..., 0, k]
    return out
