"""float32 sums of short rows in PyTorch's CPU order (its SumKernel's), so that, say, ``tan`` of a sum
agrees with PyTorch's to the last digit.

PyTorch adds a contiguous row of fewer than 16 floats one element at a time from 0, in an order
its kernel fixes: under 8 elements as four interleaved partial sums (the ones past the first four
go into the first), else the elements past one 8-lane vector first, then the vector's lanes.
Longer rows (up to _LONG) go through its cascade of 8-lane vector sums (_cascade). A sum over
leading dims (``grad.sum(0)``: a linear layer's bias gradient) adds each column down the rows as its
outer-sum kernels do (``leading_sum``).
"""
import math

import numpy as np

_F32 = np.float32
_SHORT = 16  # rows from 16 on go through its cascade of 8-lane vector sums (_cascade)
_LONG = 32768  # past this PyTorch splits a sum between threads (its grain size): the float64 sum rounded once instead
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


def _cascade(rows):
    """PyTorch's vectorized_inner_sum of float32 ``rows`` (..., n), n >= 16: the row as 8-lane
    vectors summed by row_sum (four interleaved multi_row_sum rows, the leftover vectors into the
    first, then the other three), the elements past the last vector from 0, then the lanes."""
    n = rows.shape[-1]
    nvec = n // _LANES
    vecs = rows[..., :nvec * _LANES].reshape(rows.shape[:-1] + (nvec, _LANES))
    size_ilp = nvec // 4
    quads = vecs[..., :size_ilp * 4, :].reshape(rows.shape[:-1] + (size_ilp, 4, _LANES))
    partial = _multi_row_sum_of(np.moveaxis(quads, -3, 0)) if size_ilp else np.zeros(rows.shape[:-1] + (4, _LANES), _F32)
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


def leading_sum(data, dims, keepdim, mean=False):
    """The float32 sum (or mean) of C-contiguous ``data`` over its leading ``dims`` as PyTorch adds
    it, or None where this order is not PyTorch's.

    Its outer-sum kernels add each column down the rows. Columns in groups of four (of 32 once
    there are 8 or more) go through ``multi_row_sum``; the others (the last of fewer than 8, or
    whole 8-column vectors after the 32-column blocks) through ``row_sum``: four interleaved
    ``multi_row_sum`` accumulators, the leftover rows into the first.
    """
    nd = data.ndim
    if data.dtype != _F32 or not data.size or not dims or not data.flags.c_contiguous \
            or tuple(dims) != tuple(range(len(dims))) or len(dims) == nd:
        return None
    rows = math.prod(data.shape[:len(dims)])
    flat = data.reshape(rows, -1)
    cols = flat.shape[1]
    if cols == 1:
        return None  # a row of floats: trailing_sum's (through its dims of size 1)
    out = np.empty(cols, _F32)
    grouped = cols - cols % 4 if cols < _LANES else cols - cols % 32
    with np.errstate(over="ignore", invalid="ignore"):
        if grouped:
            out[:grouped] = _multi_row_sum_of(flat[:, :grouped])
        if grouped < cols:  # row_sum adds each column alone: 8-column vectors and single columns alike
            out[grouped:] = _row_sum_of(flat[:, grouped:])
        if mean:
            out = out / _F32(rows)
    out = np.asarray(out, _F32).reshape(data.shape[len(dims):])
    return out.reshape((1,) * len(dims) + out.shape) if keepdim else out


def _row_sum_of(block):
    """row_sum down each column of ``block`` (rows, k): four interleaved accumulators over the rows."""
    rows = block.shape[0]
    quads = rows // 4
    partial = _multi_row_sum_of(block[:quads * 4].reshape(quads, 4, block.shape[1])) if quads \
        else np.zeros((4, block.shape[1]), _F32)
    first = partial[0]
    for r in range(quads * 4, rows):
        first = first + block[r]
    for k in range(1, 4):
        first = first + partial[k]
    return first


def _multi_row_sum_of(loads):
    """PyTorch's multi_row_sum of the loads ``loads[0], loads[1], ...`` (along axis 0): four levels of
    accumulators, each passing its sum on to the next every 2**level_power loads, so only sums of
    similar size meet. Vectorised: each level adds its runs with one accumulate (one after another)."""
    size = loads.shape[0]
    level_power = max(4, (int(size - 1).bit_length() if size > 1 else 0) // 4)
    step = 1 << level_power
    kept = []
    incoming = loads
    for _ in range(3):
        full = incoming.shape[0] // step
        kept.append(_from_zero(incoming[full * step:], loads.shape[1:]))
        runs = incoming[:full * step].reshape((full, step) + incoming.shape[1:])
        incoming = np.add.accumulate(runs, axis=1)[:, -1] if full else incoming[:0]
    total = kept[0]
    for level in kept[1:] + [_from_zero(incoming, loads.shape[1:])]:
        total = total + level
    return total


def _from_zero(values, shape):
    """``0 + values[0] + values[1] + ...`` in float32 (the accumulate adds one after another)."""
    if not values.shape[0]:
        return np.zeros(shape, _F32)
    return np.add.accumulate(values, axis=0)[-1] + _F32(0)


def reduce_all(a, vector_bytes):
    """ATen's ``vec::reduce_all`` (addition) of each row of ``a`` (its last axis), in ``a``'s dtype.

    A row shorter than a vector is added from its first value on. A longer one is added in lanes
    (lane ``i`` holds values ``i, i + L, i + 2L, ...`` added in turn, ``L = vector_bytes / itemsize``),
    the row's tail is added into the first lanes, and the lanes are then folded in halves (lane ``i``
    plus lane ``i + L/2``, then ``i + L/4``, ...), as the vector shuffles do.

    Args:
        a (ndarray): rows along the last axis, at least one value each.
        vector_bytes (int): 64 for AVX512 kernels, 32 for AVX2 ones.

    Returns:
        ndarray: ``a.shape[:-1]``, the row sums.
    """
    n, lanes = a.shape[-1], vector_bytes // a.dtype.itemsize
    if n < lanes:
        return np.add.accumulate(a, axis=-1)[..., -1]
    full = n // lanes * lanes
    acc = np.add.accumulate(a[..., :full].reshape(a.shape[:-1] + (n // lanes, lanes)), axis=-2)[..., -1, :]
    if full < n:
        acc[..., :n - full] += a[..., full:]
    while lanes > 1:
        lanes //= 2
        acc = acc[..., :lanes] + acc[..., lanes:]
    return acc[..., 0]
