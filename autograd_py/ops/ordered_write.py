"""In-place writes whose inputs read memory the op itself writes, element by element as PyTorch's kernels.

PyTorch refuses an input that partly overlaps the written-to tensor only when it can tell (both
dense); otherwise (a column of the tensor, say) its loop reads each input element when it gets to
it, so elements written earlier in the loop are read back already changed.
"""
import numpy as np

from .._tensor import Tensor


def _addresses(a, shape):
    """The memory address of each element of ``a`` broadcast to ``shape``, in C order."""
    b = np.broadcast_to(a, shape)
    start = a.__array_interface__["data"][0]
    offsets = np.zeros(shape, np.int64)
    for d, (n, s) in enumerate(zip(shape, b.strides)):
        if n > 1 and s:
            offsets += (np.arange(n, dtype=np.int64) * s).reshape((n,) + (1,) * (len(shape) - d - 1))
    return (start + offsets).reshape(-1)


def aliased_reads(t, others):
    """The addresses each input that shares memory with ``t`` reads, per element of ``t`` (C
    order), or None when no input reads memory ``t`` writes other than each element's own."""
    d = t._data
    if d.size < 2:
        return None
    reads = []
    for o in others:
        if not isinstance(o, Tensor) or o is t or not o._data.size or not np.may_share_memory(o._data, d):
            continue
        a = o._data
        same = (a.dtype == d.dtype and a.shape == d.shape and a.strides == d.strides
                and a.__array_interface__["data"][0] == d.__array_interface__["data"][0])
        if not same:
            reads.append(_addresses(a, d.shape))
    return reads or None


def write_in_order(dst, compute, reads):
    """Writes ``dst`` one element at a time in its memory order, recomputing the op's result
    (``compute()``, from the current memory) whenever an element reads an address already written."""
    shape = dst.shape
    written_at = _addresses(dst, shape)
    order = np.argsort(written_at, kind="stable")
    current = np.broadcast_to(compute(), shape)
    pending = set()
    for p in order.tolist():
        if pending and any(int(r[p]) in pending for r in reads):
            current = np.broadcast_to(compute(), shape)
            pending.clear()
        index = np.unravel_index(p, shape)
        dst[index] = current[index]
        pending.add(int(written_at[p]))
