"""What the backward engine does to gradients between nodes: PyTorch's validate_outputs (sum a
broadcast gradient back to its input's shape, cast its dtype) and the sum of two gradients for
one input in a node's buffer, with the version an in-place sum would show."""
import sys

from . import grad_mode
from ._tensor import Tensor, _make
from .ops import zerotensor
from .ops.base import batch_ndim, np
from .ops.unbroadcast import sum_to_plain

_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)
_asarray = np.asarray


NOT_DIFFERENTIABLE_GRAD = ('isDifferentiableType(grad.scalar_type()) INTERNAL ASSERT FAILED at '
                           '"/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp":998, please report a bug to PyTorch. ')


def _validate(node, grads):
    """Sums broadcast gradients back to each input's shape and casts dtypes: the one place for it."""
    meta = node._input_meta
    if len(grads) != len(node._next_functions):
        raise RuntimeError(
            f"function {node.name()} returned an incorrect number of gradients "
            f"(expected {len(node._next_functions)}, got {len(grads)})")
    nb = batch_ndim[0]
    for i, g in enumerate(grads):
        if g is None or meta[i] is None:
            continue
        shape, dtype = meta[i]
        if g._data.shape[nb:] != shape or g._data.ndim != len(shape) + nb:
            summed = None
            if not nb and not grad_mode._state[0] and g.__class__ is Tensor and not g._fw_grads and not (
                    zerotensor.made[0] and "_zerotensor" in g.__dict__):
                summed = sum_to_plain(g, shape)  # the same sum on NumPy data, nothing to record
            g = g._sum_to(shape, node, i) if summed is None else summed
        if g._data.dtype != dtype:
            if dtype.kind not in "fc":
                # An integer tensor given history by an in-place op (``int_t[...] = float_t``) and
                # then used in a float op: PyTorch's validate_outputs asserts on its cast gradient.
                raise RuntimeError(NOT_DIFFERENTIABLE_GRAD)
            g = g._cast(dtype)
        grads[i] = g
    return grads


_references = sys.getrefcount
_zeros_made = zerotensor.made


def _sole_buffer_references():
    """What ``_references`` counts in ``_add_grads`` for a gradient that only a buffer slot holds.

    Measured through the very call shape ``_add_grads`` uses, so it is right for whichever
    CPython runs this (3.11 here, 3.12 in Pyodide).
    """
    def probe(a, b, create_graph):
        return _references(a)
    buf = [object()]
    return probe(buf[0], None, False)


_SOLE = _sole_buffer_references()


def _add_grads(a, b, create_graph):
    """Sums two gradients for one input; without a graph to record, NumPy does it directly.

    PyTorch adds ``b`` into ``a`` in place when no graph is recorded and the buffer holds the only
    reference to ``a`` (``use_count() == 1``), a dense tensor that is not a view; that bumps
    ``a``'s version. Here the sum is a fresh tensor carrying ``a``'s version plus one: nothing else
    can see ``a`` then, so the two are indistinguishable. The reference count is the same test:
    a node's pending outputs, a captured input or the caller's gradient all hold ``a`` too.
    """
    if create_graph:
        return a + b
    ad, bd = a._data, b._data
    dt = ad.dtype
    if ad.shape != bd.shape or (dt is not bd.dtype and dt != bd.dtype):
        return a + b
    # dual gradients (forward-over-reverse) add as tensors, so their tangents add too, efficient zero
    # tensors so that two of them give one, and two layouts in TensorIterator's layout (NumPy's
    # would be C order where PyTorch keeps the first gradient's)
    if a._fw_grads or b._fw_grads or (_zeros_made[0] and ("_zerotensor" in a.__dict__ or "_zerotensor" in b.__dict__)):
        out = a + b
    elif not ad.ndim:
        # NumPy scalars (Python floats for float64) add as the ufunc does (IEEE), at a fraction of
        # its cost on 0-dim arrays
        out = _make(_asarray(ad.item() + bd.item()) if dt is _F64 else _asarray(ad[()] + bd[()]) if dt is _F32
                    else ad + bd)
    elif ad.strides != bd.strides:
        out = a + b
    else:
        out = _make(ad + bd)
    if _references(a) == _SOLE and a._base is None and (not _zeros_made[0] or "_zerotensor" not in a.__dict__) \
            and (0 not in ad.strides or all(s or n <= 1 for s, n in zip(ad.strides, ad.shape))):
        out._version_counter[0] = a._version_counter[0] + 1
    return out
