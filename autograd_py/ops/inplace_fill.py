"""Writes of a value: ``copy_``, ``fill_``, ``zero_`` and ``masked_fill_``, with their nodes
(the overwritten tensor's gradient is zero: ``CopyBackwards``, ``FillBackward*``, ``ZeroBackward0``)."""
import warnings

from .. import grad_mode
from ..node import Node
from .base import Tensor, _make, in_place, np
from .inplace import apply, check, check_overlap


def _zeros_like(grad):
    """derivatives.yaml's ``zeros_like(grad)`` for an overwritten tensor: no history, so a double
    backward through it finds nothing (None), and NaN or inf in ``grad`` do not leak (0 * inf)."""
    return _make(np.zeros_like(grad._data))


class CopyBackwards(Node):
    fw_keeps_dtype = True  # copy_'s tangent keeps the source's dtype, as PyTorch's (forward_mode._fitted)

    def name(self):
        return "torch::autograd::CopyBackwards"

    def backward(self, grad):
        g_self = _zeros_like(grad) if self._next_functions[0][0] is not None else None
        meta = self._input_meta
        if meta is not None and meta[1] is not None and meta[1][1] != grad._data.dtype and meta[1][1].kind == "f":
            # grad.to(src's dtype) comes first, as PyTorch's CopyBackwards; the engine then sums it
            # back to src's shape (SumBackward0 over ToCopyBackward0 under create_graph)
            from .pointwise import to_dtype
            return g_self, to_dtype(grad, meta[1][1])
        return g_self, grad  # the engine sums grad back to src's shape

    def jvp(self, tangents, inputs, result):
        # derivatives.yaml: self_t.copy_(src_t): the source's tangent, broadcast (zeros without one).
        # Cast only when it is copied into the tensor's own tangent, or broadcast (PyTorch lays a
        # broadcast tangent out anew, in the tensor's dtype): a new one keeps src_t's dtype.
        src_t = tangents[1]
        if src_t is None:
            return _zeros_like(result)
        if src_t._data.shape != result._data.shape and src_t._data.dtype != result._data.dtype:
            return src_t.to(result.dtype)
        return src_t


class FillBackward0(Node):
    def backward(self, grad):
        return _zeros_like(grad)

    def jvp(self, tangents, inputs, result):
        return _zeros_like(result)  # derivatives.yaml: self_t.fill_(0)


class FillBackward2(FillBackward0):  # fill_ with a number (FillBackward0 is out-of-place fill's)
    pass


class ZeroBackward0(FillBackward0):
    pass


def _filled(old, data, node_cls, others=()):
    from .base import grad_on, record
    out = _make(data)
    if grad_on(old, *others):
        in_place[0] += 1
        try:
            record(out, node_cls(), (old,) + tuple(others))
        finally:
            in_place[0] -= 1
    return out


def copy_(t, src):
    """Copies ``src`` (broadcast, cast) into ``t`` in place. Returns ``t``."""
    def copy(old):
        s = src._data if isinstance(src, Tensor) else np.asarray(src)
        data = np.array(np.broadcast_to(s, old._data.shape), dtype=old._data.dtype)
        return _filled(old, data, CopyBackwards, (src,) if isinstance(src, Tensor) else (None,))
    if t._data.dtype.kind not in "fc":
        # PyTorch's copy_ gives an integer or bool tensor no history, even from one that requires
        # grad (fill_ with a tensor value does record FillBackward3 there).
        with grad_mode.no_grad():
            return apply(t, copy, src, overlap_ok=_same_data(t, src))
    # PyTorch's copy_ returns early, before its overlap checks, when src is t's very memory.
    return apply(t, copy, src, overlap_ok=_same_data(t, src))


def _same_data(t, src):
    """True when ``src`` reads exactly the memory ``t`` would write (same start, sizes, strides, dtype)."""
    if not isinstance(src, Tensor):
        return False
    a, b = t._data, src._data
    return (a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


class FillBackward3(Node):
    """``fill_`` with a 0-dim tensor value, which gets the sum of the gradient."""

    def backward(self, grad):
        g_self = _zeros_like(grad) if self._next_functions[0][0] is not None else None
        return g_self, (grad.sum() if self._next_functions[1][0] is not None else None)

    def jvp(self, tangents, inputs, result):
        # derivatives.yaml: self_t.fill_(value_t)
        value_t = tangents[1]
        if value_t is None:
            return _zeros_like(result)
        from .shape import expand
        return expand(value_t, result._data.shape)


def fill_(t, value):
    """Fills ``t`` with ``value`` in place. Returns ``t``."""
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value._data.ndim} dimensions.")
        # PyTorch's fill_ with a tensor value is a copy_ (of a clone, if it aliases ``t``), whose
        # expanded written-to tensor is refused; filling with a number is not. The autograd check
        # (a leaf, or a view of one) comes first, as VariableType's check_inplace.
        check(t)
        check_overlap(t, ())
        return apply(t, lambda old: _filled(old, np.full(old._data.shape, value._data, old._data.dtype),
                                            FillBackward3, (value,)), value, overlap_ok=True)
    return apply(t, lambda old: _filled(old, np.full(old._data.shape, value, old._data.dtype), FillBackward2),
                 overlap_ok=True)


def zero_(t):
    """Fills ``t`` with zeros in place. Returns ``t``."""
    return apply(t, lambda old: _filled(old, np.zeros_like(old._data), ZeroBackward0), overlap_ok=True)


MASKED_FILL_EXPANDED_WARNING = (
    "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before performing this "
    "operation. This also applies to advanced indexing e.g. tensor[mask] = scalar (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:2450.)")


def masked_fill_(t, mask, value):
    """Fills ``t`` with ``value`` where ``mask`` is True, in place. Returns ``t``."""
    from .advanced_indexing import masked_fill
    if has_internal_overlap(t):
        warnings.warn(MASKED_FILL_EXPANDED_WARNING, UserWarning, stacklevel=2)
    where = None
    if isinstance(mask, Tensor) and t._data.size:
        where = np.broadcast_to(mask._data.astype(bool, copy=False), t._data.shape)
    return apply(t, lambda old: masked_fill(old, mask, value), mask, value, overlap_ok=True, where=where)


def has_internal_overlap(t):
    """PyTorch's has_internal_overlap: an expanded (stride-0) dim of size > 1."""
    d = t._data
    return bool(d.size) and any(s == 0 and n > 1 for s, n in zip(d.strides, d.shape))
