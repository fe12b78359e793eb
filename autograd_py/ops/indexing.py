"""Indexing: select/slice views, advanced (fancy and mask) indexing, and writes through ``[]=``.

Basic indexing becomes a chain of view ops, one node per index item, as in PyTorch; advanced
indexing is one ``IndexBackward0`` node. Writes go through ``inplace.py``.
"""
from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim
from .base import Tensor, _make, batch_ndim, batched, grad_on, np, record
from .shape import _view_chain, unsqueeze


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
        return embed(grad, batched(grad, self.shape), _batched_key(self.saved("indices")))


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
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    d = _wrap_dim(dim, nd)
    size = input._data.shape[d]
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {d} with size {size}")
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


def _is_advanced(item):
    return isinstance(item, (list, np.ndarray, Tensor)) and not (
        isinstance(item, Tensor) and item._data.ndim == 0 and item._data.dtype.kind in "iu")


def _normalise(key):
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    for k in key:
        if isinstance(k, Tensor):
            if k._data.ndim == 0 and k._data.dtype.kind in "iu":
                k = int(k._data)
            else:
                k = k._data
        elif isinstance(k, list):
            k = np.asarray(k)
        elif isinstance(k, np.integer):
            k = int(k)
        out.append(k)
    return tuple(out)


ZERO_DIM_INDEX = ("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
                  "to convert a 0-dim tensor to a number")


def getitem(input, key):
    if key.__class__ in (int, slice) and not input._data.ndim:
        # PyTorch's single-index path names the mistake; tuples fall through to "too many indices".
        raise IndexError(ZERO_DIM_INDEX if key.__class__ is int else "slice() cannot be applied to a 0-dim tensor.")
    if isinstance(key, slice) and input._data.ndim:
        # A lone slice always records SliceBackward0, even ``x[:]`` (PyTorch's single-index path).
        return slice_dim(input, 0, key.start, key.stop, key.step)
    key = _normalise(key)
    if any(_is_advanced(k) for k in key):
        basic, advanced = _split_key(input, key)
        return _read(input if basic is None else getitem(input, basic), advanced)
    if key == (Ellipsis,):
        out = _view_chain(_make(input._data[...]), input, lambda x: x, lambda a: a)
        if grad_on(input):
            record(out, AliasBackward0(), (input,))
        return out
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if n_real > input._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {input._data.ndim}")
    out, dim = input, 0
    for k in key:
        if k is None:
            out = unsqueeze(out, dim)
            dim += 1
        elif k is Ellipsis:
            dim = out._data.ndim - (n_real - _consumed(key, k))
        elif isinstance(k, slice):
            start, stop, step = k.indices(out._data.shape[dim])
            if not (start == 0 and stop == out._data.shape[dim] and step == 1):
                out = slice_dim(out, dim, k.start, k.stop, k.step)
            dim += 1
        elif isinstance(k, (int, bool)):
            out = select(out, dim, int(k))
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                             "Variables are valid indices (got " + type(k).__name__ + ")")
    if out is input:
        out = _view_chain(_make(input._data[...]), input, lambda x: x, lambda a: a)
        if grad_on(input):
            record(out, AliasBackward0(), (input,))
    return out


def _consumed(key, ellipsis):
    count = 0
    for k in key:
        if k is ellipsis:
            return count
        if k is not None:
            count += 1
    return count


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
    from . import inplace
    if key.__class__ is int and not input._data.ndim:
        raise IndexError(ZERO_DIM_INDEX)
    key = _normalise(key)
    if not isinstance(value, Tensor):
        value = _make(np.asarray(value, dtype=input._data.dtype))
    if any(_is_advanced(k) for k in key):
        basic, advanced = _split_key(input, key)
        target = input if basic is None else getitem(input, basic)
        return inplace.apply(target, lambda t: index_put(t, advanced, value), value)
    inplace.copy_(getitem(input, key), value)


def _split_key(input, key):
    """Splits a key with advanced items the way PyTorch applies it: first the basic items (ints,
    slices, None, ...) as views, then the index arrays on what is left. So ``x[0, :, [0, 1]]`` has
    shape ``(4, 2)`` for x of shape (3, 4, 5), where NumPy's rules would give ``(2, 4)``.

    Returns:
        (basic key, or None when it would select everything; advanced key for the result).
    """
    widths = [k.ndim if k.dtype == bool else 1 for k in key if isinstance(k, np.ndarray)]
    consumed = sum(widths) + sum(1 for k in key if k is not None and k is not Ellipsis and not
                                 isinstance(k, np.ndarray))
    basic, placed, dim, trivial = [], [], 0, True
    for k in key:
        if isinstance(k, np.ndarray):
            width = k.ndim if k.dtype == bool else 1
            placed.append((dim, k))
            basic.extend([slice(None)] * width)
            dim += width
        elif k is Ellipsis:
            basic.append(k)
            dim += input._data.ndim - consumed
        elif k is None or isinstance(k, slice):
            basic.append(k)
            dim += 1
            trivial = trivial and k == slice(None)
        else:  # an int: selected away
            basic.append(k)
            trivial = False
    advanced, at = [], 0
    for pos, k in placed:
        advanced.extend([slice(None)] * (pos - at) + [k])
        at = pos + (k.ndim if k.dtype == bool else 1)
    return (None if trivial else tuple(basic)), tuple(advanced)


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
