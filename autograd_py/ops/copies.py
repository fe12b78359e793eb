"""Copies and casts: ``clone``, ``to_dtype`` and the layouts PyTorch gives a new tensor like another
(``memory_format=preserve``), which the elementwise ops use for their results too."""
from .base import _make, grad_on, np, record
from ..node import Node


class CloneBackward0(Node):
    element_wise = True
    def backward(self, grad):
        return grad


class ToCopyBackward0(Node):
    def jvp(self, tangents, inputs, result):
        return to_dtype(tangents[0], result._data.dtype) if result._data.dtype.kind in "fc" else None

    def backward(self, grad):
        meta = self._input_meta
        if meta is not None and meta[0] is not None and meta[0][1] != grad._data.dtype and meta[0][1].kind == "f":
            # _to_copy_backward casts first; the engine then sums to the input's shape if it changed
            # (SumBackward0 over ToCopyBackward0 under create_graph)
            return to_dtype(grad, meta[0][1])
        return grad


def clone(input, memory_format=None):
    d = input._data
    out = _make(d.copy() if d.flags.c_contiguous else preserve_layout(d, d.dtype))
    if grad_on(input):
        record(out, CloneBackward0(), (input,))
    return out


def preserve_layout(d, np_dtype):
    """A copy of the array ``d`` as ``np_dtype`` laid out as PyTorch's ``memory_format=preserve``."""
    out = empty_preserving(d, np_dtype)
    out[...] = d
    return out


def empty_preserving(d, np_dtype):
    """An empty array of ``d``'s shape laid out as PyTorch lays out a new tensor like ``d``
    (``empty_like``, an elementwise op's output): dense strides are kept; otherwise
    ``infer_dense_strides`` orders the dims as ``d``'s strides do (ties, and stride-0 dims, keep
    the contiguous order)."""
    from .inplace import _dense
    if d.flags.c_contiguous:
        return np.empty(d.shape, np_dtype)
    if _dense(d):
        return np.empty_like(d, dtype=np_dtype)  # NumPy's K order keeps a dense layout
    strides, sizes = d.strides, d.shape
    perm = list(range(d.ndim - 1, -1, -1))  # innermost first
    for i in range(1, d.ndim):  # PyTorch's insertion sort, stopping at an ambiguous pair
        d1 = i
        for d0 in range(i - 1, -1, -1):
            a, b = perm[d0], perm[d1]
            sa, sb = strides[a], strides[b]
            swap = 0 if sa == 0 or sb == 0 else (-1 if sa < sb else 1 if sa > sb or sizes[a] > sizes[b] else 0)
            if swap > 0:
                perm[d0], perm[d1] = b, a
                d1 = d0
            elif swap < 0:
                break
    outer = perm[::-1]
    return np.transpose(np.empty(tuple(sizes[k] for k in outer), np_dtype), np.argsort(outer))


def to_dtype(input, np_dtype):
    if input._data.dtype == np_dtype:
        return input
    d = input._data
    if d.flags.c_contiguous:
        out = _make(d.astype(np_dtype))
    else:
        out = _make(preserve_layout(d, np_dtype))
    if grad_on(input) and out._data.dtype.kind == "f":
        record(out, ToCopyBackward0(), (input,))
    return out
