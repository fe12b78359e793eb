"""float32 sums of short rows in PyTorch's CPU order (its SumKernel's), so that, say, ``tan`` of a sum
agrees with PyTorch's to the last digit.

PyTorch adds a contiguous row of fewer than 16 floats one element at a time from 0, in an order
its kernel fixes: under 8 elements as four interleaved partial sums (the ones past the first four
go into the first), else the elements past one 8-lane vector first, then the vector's lanes.
"""
import math

import numpy as np

_F32 = np.float32
_SHORT = 16  # longer rows go through its cascade of vector sums: the float64 sum rounded once is as close
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
    if data.dtype != _F32 or not data.size or not dims or not data.flags.c_contiguous \
            or tuple(dims) != tuple(range(nd - len(dims), nd)):
        return None
    kept = data.shape[:nd - len(dims)]
    n = math.prod(data.shape[nd - len(dims):])
    if n >= _SHORT:
        return None
    rows = data.reshape(kept + (n,))[..., _order(n)]
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.add.accumulate(rows, axis=-1)[..., -1] + _F32(0)  # from 0: a -0.0 sum is +0.0
        if mean:
            out = out / _F32(n)
    out = np.asarray(out, _F32)
    return out.reshape(kept + (1,) * len(dims)) if keepdim else out
