"""Writes through ``x[key] = value``, as PyTorch's ``set_item``.

The key's basic items give a view (or the tensor itself when they select everything); the value
is copied or filled into it in place, or, when the key has index tensors, put at those indices
with ``index_put_``. In-place bookkeeping (versions, ``CopySlices`` on the base) is ``inplace.py``'s.
"""
import warnings

from ..node import Node
from . import index_key
from .base import Tensor, _make, grad_on, np, record
from .advanced_indexing import _batched_key, _read
from .indexing import ZERO_DIM_INDEX, _views
from .shape import expand, unsqueeze, view


class IndexPutBackward0(Node):
    def backward(self, grad):
        # derivatives.yaml: self gets grad.index_put(indices, zeros_like(values)), values grad[indices]
        key = _batched_key(self.key)
        ga = index_put(grad, key, _make(np.zeros((), grad._data.dtype))) if self._next_functions[0][0] is not None else None
        gv = _read(grad, key) if self._next_functions[1][0] is not None else None
        return ga, gv

    def jvp(self, tangents, inputs, result):
        # derivatives.yaml: self_t.index_put(indices, values_t), zeros for a missing tangent
        self_t, values_t = tangents
        if self_t is None:
            self_t = _make(np.zeros(result._data.shape, result._data.dtype))
        return index_put(self_t, self.key, values_t if values_t is not None else 0)


def index_put(input, key, values):
    """Out-of-place ``input[key] = values`` for an advanced key (``__setitem__`` makes it in place)."""
    data = input._data.copy()
    data[key] = values._data if isinstance(values, Tensor) else values
    out = _make(data)
    if grad_on(input, values):
        node = IndexPutBackward0()
        node.shape, node.key = input._data.shape, key
        record(out, node, (input, values))
    return out


def setitem(input, key, value):
    """``input[key] = value`` as PyTorch's ``set_item``: the basic items give a view (or the tensor
    itself when they select everything), which ``value`` is copied or filled into; index tensors
    then make it an in-place ``index_put_`` on that view."""
    from . import inplace
    value = _value_tensor(input, value)
    nd, cls = input._data.ndim, key.__class__
    if cls is bool or key is None:
        if key is not False:
            _copy_to(unsqueeze(input, 0), value)
        return
    if cls is int and not nd:
        raise IndexError(ZERO_DIM_INDEX if key == 0 else
                         f"index {key} is out of bounds for dimension 0 with size {input._size0_slot}")
    if cls is slice and not nd:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    basic, placed = index_key.split(index_key.items(key), nd)
    target = _views(input, basic)
    if not placed:
        _copy_to(target, value)
        return
    inplace.check(target)  # index_put_'s autograd check comes before its kernel's checks and warnings
    advanced = index_key.advanced(target._data.shape, placed)
    value = _drop_leading_ones(value)
    if value._data.dtype != target._data.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{_type_name(target)} for the destination and {_type_name(value)} for the source.")
    result = np.empty(target._data.shape, np.bool_)[advanced].shape
    try:
        np.broadcast_shapes(value._data.shape, result)
    except ValueError:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(value._data.shape)} cannot be broadcast "
                           f"to indexing result of shape {list(result)}") from None
    expanded = inplace.has_internal_overlap(target)
    if expanded:
        warnings.warn(INDEX_PUT_EXPANDED_WARNING, UserWarning, stacklevel=2)
    where = np.zeros(target._data.shape, np.bool_)
    where[advanced] = True  # the kernel writes only the indexed elements
    if expanded and len(placed) == 1 and placed[0][1].dtype in index_key.MASK_DTYPES and value._data.size == 1:
        # index_put_ hands a lone mask with a one-element value to masked_fill_, which warns too
        warnings.warn(inplace.MASKED_FILL_EXPANDED_WARNING, UserWarning, stacklevel=2)
    inplace.apply(target, lambda t: index_put(t, advanced, value), value, internal=False, where=where)


INDEX_PUT_EXPANDED_WARNING = ("Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before "
                              "performing this operation. This also applies to advanced indexing e.g. "
                              "tensor[indices] = tensor (Triggered internally at "
                              "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:976.)")


def _type_name(t):
    return t.dtype.legacy_name[:-len("Tensor")]


def _value_tensor(input, value):
    """PyTorch's setitem value: a tensor as is, a Python number as a 0-dim tensor of ``input``'s dtype."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, np.number, np.bool_)):
        return _make(np.asarray(value, dtype=input._data.dtype))
    raise TypeError(f"can't assign a {type(value).__name__} to a torch.{input.dtype.legacy_name}")


def _drop_leading_ones_shape(shape):
    n = 0
    while n < len(shape) and shape[n] == 1:
        n += 1
    return shape[n:]


def _drop_leading_ones(value):
    shape = _drop_leading_ones_shape(value._data.shape)
    return view(value, shape) if shape != value._data.shape else value


def _copy_to(dst, src):
    """PyTorch's ``copy_to``: ``copy_`` for equal shapes, ``fill_`` for a 0-dim value, otherwise
    ``copy_`` from the value without its leading size-1 dims, expanded to ``dst``."""
    from . import inplace
    if dst._data.shape == src._data.shape:
        inplace.copy_(dst, src)
    elif not src._data.ndim:
        inplace.fill_(dst, src)
    else:
        src = view(src, _drop_leading_ones_shape(src._data.shape))
        if src._data.shape != dst._data.shape:
            src = expand(src, dst._data.shape)
        inplace.copy_(dst, src)
