"""Indexing: select/slice views, advanced (fancy and mask) indexing, and writes through ``[]=``.

Basic indexing becomes a chain of view ops, one node per index item, as in PyTorch; advanced
indexing is one ``IndexBackward0`` node. Writes go through ``inplace.py``.
"""
from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim
from . import index_key
from .base import Tensor, _make, batch_ndim, batched, grad_on, np, record, written_in_place
from .shape import _view_chain, expand, unsqueeze, view


class IndexEmbedBackward(Node):
    """Backward of the embedding below: read the same positions back."""

    supports_batched = False

    def backward(self, grad):
        return _read(grad, self.key)


def embed(grad, shape, key):
    """A zero tensor of ``shape`` with ``grad`` added at ``key`` (repeated indices accumulate)."""
    data = np.zeros(shape, dtype=grad._data.dtype)
    np.add.at(data, key, grad._data)
    out = _make(data)
    if grad_on(grad):
        node = IndexEmbedBackward()
        node.key = key
        record(out, node, (grad,))
    return out


def _read(t, key, cls=None):
    out = _make(t._data[key])
    if grad_on(t):
        node = (cls or IndexBackward0)()
        node.shape = t._data.shape
        node.save(indices=key)
        record(out, node, (t,))
    return out


def _batched_key(key):
    """Prefixes ``key`` with full slices for the batch dims of a vectorized backward."""
    return (slice(None),) * batch_ndim[0] + key


class _ViewIndexBackward(Node):
    """Basic indexing along one dim; ``key`` is ``(:,) * dim + (item, ...)``."""

    def backward(self, grad):
        return embed(grad, batched(grad, self.shape), _batched_key(self.key))

    @property
    def dim(self):
        return len(self.key) - 2


class SelectBackward0(_ViewIndexBackward):
    keeps = ("dim", "index", "self_sym_sizes")

    @property
    def index(self):
        return self.key[-2]


class SliceBackward0(_ViewIndexBackward):
    keeps = ("dim", "end", "self_sym_sizes", "start", "step")

    @property
    def start(self):
        return self.key[-2].start or 0

    @property
    def end(self):
        stop = self.key[-2].stop
        return 2 ** 63 - 1 if stop is None else stop

    @property
    def step(self):
        return self.key[-2].step or 1


class IndexBackward0(Node):
    """Advanced indexing saves its indices, so (as in PyTorch) a second backward needs retain_graph."""

    def backward(self, grad):
        # PyTorch's index_backward: zeros(...).index_put_(indices, grad, accumulate=True)
        return written_in_place(embed(grad, batched(grad, self.shape), _batched_key(self.saved("indices"))))


class IndexSelectBackward0(IndexBackward0):
    pass


class MaskedSelectBackward0(IndexBackward0):
    pass


class AliasBackward0(Node):
    def backward(self, grad):
        return grad


@numpy_names
def select(input, dim, index):
    nd = input._data.ndim
    if nd == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, nd)
    size = input._data.shape[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(input._data.shape)} at dimension {d}")
    key = (slice(None),) * d + (index,)
    return _basic(input, key, SelectBackward0, lambda x: select(x, d, index))


def slice_dim(input, dim, start, stop, step=1):
    d = _wrap_dim(dim, input._data.ndim)
    if step is not None and step <= 0:
        raise ValueError("step must be greater than zero")
    key = (slice(None),) * d + (slice(start, stop, step),)
    return _basic(input, key, SliceBackward0, lambda x: slice_dim(x, d, start, stop, step))


@numpy_names
def narrow(input, dim, start, length):
    return slice_dim(input, dim, start, start + length)


def _basic(input, key, cls, tensor_fn):
    # The trailing Ellipsis makes NumPy return a 0-d view instead of a scalar copy.
    key = key + (Ellipsis,)
    out = _view_chain(_make(input._data[key]), input, tensor_fn, lambda a: a[key])
    if grad_on(input):
        node = cls()
        node.shape, node.key = input._data.shape, key
        record(out, node, (input,))
    return out


ZERO_DIM_INDEX = ("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
                  "to convert a 0-dim tensor to a number")


def getitem(input, key):
    nd = input._data.ndim
    if key.__class__ is int and not nd:
        # PyTorch's single-index path: only index 0 gets the hint; tuples say "too many indices".
        raise IndexError(ZERO_DIM_INDEX if key == 0 else f"index {key} is out of bounds for dimension 0 with size 0")
    if key.__class__ is slice:
        if not nd:
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        # A lone slice always records SliceBackward0, even ``x[:]`` (PyTorch's single-index path).
        return slice_dim(input, 0, key.start, key.stop, key.step)
    basic, placed = index_key.split(index_key.items(key), nd)
    out = _views(input, basic)
    if placed:
        return _read(out, index_key.advanced(out._data.shape, placed))
    if out is input:
        out = _view_chain(_make(input._data[...]), input, lambda x: x, lambda a: a)
        if grad_on(input):
            record(out, AliasBackward0(), (input,))
    return out


def _views(input, basic):
    """Applies the basic items of a key (see ``index_key.split``) as a chain of views; slices
    that keep everything record nothing, as in PyTorch."""
    out, dim = input, 0
    for k in basic:
        if k is None:
            out = unsqueeze(out, dim)
            dim += 1
        elif k.__class__ is slice:
            size = out._data.shape[dim]
            start, stop, step = k.indices(size)
            if not (start == 0 and stop == size and step == 1):
                out = slice_dim(out, dim, k.start, k.stop, k.step)
            dim += 1
        else:
            index, pos = k
            size = out._data.shape[dim]
            if not -size <= index < size:
                raise IndexError(f"index {index} is out of bounds for dimension {pos} with size {size}")
            out = _basic(out, (slice(None),) * dim + (index,), SelectBackward0,
                         lambda x, d=dim, i=index: select(x, d, i))
    return out


class IndexPutBackward0(Node):
    def backward(self, grad):
        mask = np.ones(self.shape, dtype=bool)
        mask[self.key] = False
        ga = grad * _make(mask) if self._next_functions[0][0] is not None else None
        gv = _read(grad, _batched_key(self.key)) if self._next_functions[1][0] is not None else None
        return ga, gv


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
        raise IndexError(ZERO_DIM_INDEX if key == 0 else f"index {key} is out of bounds for dimension 0 with size 0")
    if cls is slice and not nd:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    basic, placed = index_key.split(index_key.items(key), nd)
    target = _views(input, basic)
    if not placed:
        _copy_to(target, value)
        return
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
    inplace.apply(target, lambda t: index_put(t, advanced, value), value)


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


@numpy_names
def index_select(input, dim, index):
    d = _wrap_dim(dim, input._data.ndim)
    return _read(input, (slice(None),) * d + (index._data,), IndexSelectBackward0)


def masked_select(input, mask):
    return _read(input, (np.broadcast_to(mask._data, input._data.shape),), MaskedSelectBackward0)


class MaskedFillBackward0(Node):
    def backward(self, grad):
        from .comparison import where
        mask = self.saved("mask")
        g_self = masked_fill(grad, mask, 0.0) if self._next_functions[0][0] is not None else None
        if len(self._next_functions) == 1:
            return g_self
        # A 0-d tensor value receives the sum over the filled positions (the engine sums it down).
        g_value = where(mask, grad, 0.0) if self._next_functions[1][0] is not None else None
        return g_self, g_value


class MaskedFillBackward1(MaskedFillBackward0):
    pass


def masked_fill(input, mask, value):
    fill = value._data if isinstance(value, Tensor) else value
    out = _make(np.where(mask._data, np.asarray(fill, dtype=input._data.dtype), input._data))
    if grad_on(input, value):
        node = MaskedFillBackward1() if isinstance(value, Tensor) else MaskedFillBackward0()
        node.save(mask=mask)
        record(out, node, (input, value) if isinstance(value, Tensor) else (input,))
    return out


def nonzero(input, as_tuple=False):
    idx = np.nonzero(input._data)
    if as_tuple:
        return tuple(_make(i.astype(np.int64)) for i in idx)
    return _make(np.stack(idx, axis=1).astype(np.int64) if idx else np.zeros((0, 0), np.int64))


class IndexAddBackward0(Node):
    saves = ("index", "source")
    keeps = ("alpha", "dim", "source_dim")

    def backward(self, grad):
        g_self = grad if self._next_functions[0][0] is not None else None
        if self._next_functions[1][0] is None:
            return g_self, None
        g_source = index_select(grad, self.axis, self.saved("index"))
        g_source = g_source.reshape(g_source._data.shape[:batch_ndim[0]] + self.source_shape)
        return g_self, (g_source if self.alpha == 1 else g_source * self.alpha)


@numpy_names
def index_add(input, dim, index, source, *, alpha=1):
    """``input`` with ``alpha * source`` added at ``index`` along ``dim`` (repeated indices add up).

    Example::

        >>> torch.zeros(3).index_add(0, torch.tensor([2, 0, 2]), torch.tensor([1., 2., 3.]))
        tensor([2., 0., 4.])
    """
    if input.dtype is not source.dtype:
        raise RuntimeError(f"index_add_(): self ({input.dtype.legacy_name[:-6]}) and source "
                           f"({source.dtype.legacy_name[:-6]}) must have the same scalar type")
    d = _wrap_dim(dim, input._data.ndim)
    data = input._data.copy()
    target = data.reshape(1) if data.ndim == 0 else data
    np.add.at(target, (slice(None),) * d + (index._data.reshape(-1),),
              (source._data * alpha if alpha != 1 else source._data).reshape(
                  target.shape[:d] + (index._data.size,) + target.shape[d + 1:]))
    out = _make(data)
    if grad_on(input, source):
        node = IndexAddBackward0()
        node.alpha, node.dim, node.source_dim = alpha, dim, source._data.ndim
        node.axis, node.source_shape = d - max(input._data.ndim, 1), source._data.shape
        node.save(index=index, source=source)
        record(out, node, (input, source))
    return out
