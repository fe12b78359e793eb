"""The common case of ``+``, ``-`` and ``*`` computed without the general operand handling: a
float64 or float32 tensor of at most one dim with a Python float or a tensor of its dtype and shape.

There is then nothing to promote, broadcast or lay out, and the result is what the general path
computes: the ufunc on the arrays, or, for 0-dim tensors, the operator on NumPy scalars (IEEE
arithmetic like the ufunc's; see ``base.scalar_operands``). W1's chain and micrograd-style scalar
networks are all such ops.
"""
import numpy as np

from .._tensor import Tensor, _new
from ..grad_mode import _inference

_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)
_asarray = np.asarray


def result(input, other, ufunc, op):
    """``ufunc(input, other)`` (``op`` on NumPy scalars at 0 dims) as a new Tensor without history,
    or None when the operands are not plain (the general path then computes it)."""
    a = input._data
    dt = a.dtype
    if dt is not _F64 and dt is not _F32 or a.ndim > 1 or _inference[0]:
        return None
    cls = other.__class__
    if cls is float:
        res = ufunc(a, other) if a.ndim else _asarray(op(a[()], other))
    elif cls is Tensor:
        b = other._data
        if b.dtype is not dt or b.shape != a.shape:
            return None
        res = ufunc(a, b) if a.ndim else _asarray(op(a[()], b[()]))
    else:
        return None
    out = _new(Tensor)  # _make's body
    out._data = res
    out._version_counter = [0]
    return out
