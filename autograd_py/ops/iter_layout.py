"""The layout TensorIterator gives a new elementwise result of two operands: its dims sorted by the
operands' strides, the first operand deciding where they disagree (``reorder_dimensions``). NumPy
prefers C order there, so ``x.t() * y`` or an einsum's permuted operands would be laid out apart from
PyTorch's, and a later ``reshape`` would be a view in one and a copy in the other."""
import numpy as np


def _strides(x, shape):
    """``x``'s strides against the broadcast ``shape``: 0 where it is broadcast (or missing)."""
    off = len(shape) - x.ndim
    return [0] * off + [0 if x.shape[i] == 1 and shape[off + i] != 1 else x.strides[i] for i in range(x.ndim)]


def laid_out(res, a, b):
    """``res`` (a fresh elementwise result of the array ``a`` and ``b``, an array or a number that
    takes no part) as TensorIterator lays it out; ``res`` itself when that is its layout already."""
    shape = res.shape
    if len(shape) < 2 or a.flags.c_contiguous and a.shape == shape and 1 not in shape:
        return res  # the hot path: a contiguous first operand of the result's shape decides C order
        # (size-1 dims tie on strides, so the other operand may still reorder them)
    nd = len(shape)
    arrays = [x for x in (a, b) if isinstance(x, np.ndarray) and x.ndim]
    strides = [_strides(x, shape) for x in arrays]

    def should_swap(d0, d1):
        for s in strides:
            s0, s1 = s[d0], s[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(nd - 1, -1, -1))  # fastest dim first
    for i in range(1, nd):  # insertion sort that stops at an ambiguous pair, as PyTorch's
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    outer = perm[::-1]
    if outer == list(range(nd)):
        return res if res.flags.c_contiguous else np.ascontiguousarray(res)
    want = np.transpose(np.empty([shape[k] for k in outer], res.dtype), np.argsort(outer))
    if want.strides == res.strides:
        return res
    want[...] = res
    return want
