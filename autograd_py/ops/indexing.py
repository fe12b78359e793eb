"""Indexing: select/slice views, advanced (fancy and mask) indexing, and writes through ``[]=``.

Basic indexing becomes a chain of view ops, one node per index item, as in PyTorch; advanced
indexing is one ``IndexBackward0`` node. Writes (``x[key] = v``) are in ``setitem.py``.
"""
from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim
from . import index_key
from .base import Tensor, _make, _stale_first, batch_ndim, batched, grad_on, np, record, written_in_place
from .shape import _view_chain, expand, unsqueeze, view_jvp


class SelectBackwardBackward0(Node):
    """Backward of select's backward (an embedding): the select again."""

    supports_batched = False

    def backward(self, grad):
        return self.redo(grad)

    def jvp(self, tangents, inputs, result):
        # linear: the same embedding of the tangent
        node = type(self)()
        node.redo, node.key = self.redo, self.key
        return embed(tangents[0], result._data.shape, self.key, node)


class SliceBackwardBackward0(SelectBackwardBackward0):
    pass


class IndexPutImplBackward0(Node):
    """Backward of index's backward, ``zeros.index_put_(indices, grad, accumulate=True)``: the
    zeros need nothing, the gradient is read back at the indices."""

    supports_batched = False

    def backward(self, grad):
        return None, _read(grad, self.key, self.read_cls)

    def jvp(self, tangents, inputs, result):
        node = type(self)()
        node.key, node.read_cls = self.key, self.read_cls
        return _scatter(tangents[0], result._data.shape, self.key, node)


class MaskedScatterBackward0(IndexPutImplBackward0):
    pass


def embed(grad, shape, key, node):
    """A zero tensor of ``shape`` with ``grad`` added at ``key`` (repeated indices accumulate);
    ``node`` (a backward-of-backward, which reads ``key`` back) records it under create_graph."""
    data = np.zeros(shape, dtype=grad._data.dtype)
    np.add.at(data, key, grad._data)
    out = _make(data)
    if grad_on(grad):
        record(out, node, (grad,))
    return out


def _scatter(grad, shape, key, node):
    """``embed`` as PyTorch's index backwards do it: written into fresh zeros in place (version 1),
    so the node's first input is the zeros tensor, which needs no gradient."""
    out = written_in_place(embed(grad, shape, key, node))
    if node is not None and out._grad_fn is node:
        node._next_functions = ((None, 0),) + node._next_functions
        if node._input_meta is not None:
            node._input_meta = [None] + node._input_meta
    return out


def _read(t, key, cls=None, data=None, **attrs):
    if data is None:
        data = t._data[key]
    out = _make(data if data.flags.c_contiguous else data.copy())  # PyTorch's index gives a contiguous result
    if grad_on(t):
        node = (cls or IndexBackward0)()
        node.shape, node.key = t._data.shape, key
        node.__dict__.update(attrs)
        node.save(indices=key)
        record(out, node, (t,))
    return out


def _batched_key(key):
    """Prefixes ``key`` with full slices for the batch dims of a vectorized backward."""
    return (slice(None),) * batch_ndim[0] + key


class _ViewIndexBackward(Node):
    """Basic indexing along one dim; ``key`` is ``(:,) * dim + (item, ...)``; ``redo`` is the
    forward op, which the backward's own backward runs again."""

    jvp = view_jvp
    fw_view = True

    def backward(self, grad):
        key, node = _batched_key(self.key), None
        if grad_on(grad):  # PyTorch makes the node (and takes a sequence number) only to record it
            node = self.double_backward_cls()
            node.redo, node.key = self.redo, key
        return embed(grad, batched(grad, self.shape), key, node)

    @property
    def dim(self):
        return len(self.key) - 2


class SelectBackward0(_ViewIndexBackward):
    keeps = ("dim", "index", "self_sym_sizes")
    double_backward_cls = SelectBackwardBackward0

    @property
    def index(self):
        return self.key[-2]


class SliceBackward0(_ViewIndexBackward):
    keeps = ("dim", "end", "self_sym_sizes", "start", "step")
    double_backward_cls = SliceBackwardBackward0

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

    double_backward_cls = IndexPutImplBackward0

    def backward(self, grad):
        # PyTorch's index_backward: zeros(...).index_put_(indices, grad, accumulate=True)
        key, node = _batched_key(self.saved("indices")), None
        if grad_on(grad):
            node = self.double_backward_cls()
            node.key, node.read_cls = key, type(self)
        return _scatter(grad, batched(grad, self.shape), key, node)

    def jvp(self, tangents, inputs, result):
        return _read(tangents[0], self.key, type(self))  # auto_linear: the same indexing of the tangent


class IndexSelectBackward0(IndexBackward0):
    def backward(self, grad):
        # PyTorch's index_select_backward: zeros(...).index_add_(dim, index, grad)
        key, node = _batched_key(self.saved("indices")), None
        if grad_on(grad):
            node = IndexAddBackward0()
            node.alpha, node.dim, node.source_dim, node.source_shape = 1, self.dim, grad._data.ndim, self.source_shape
            node.axis, node.index, node.key = self.axis, self.index, key
            node.save(index=self.index)
        return _scatter(grad, batched(grad, self.shape), key, node)

    def jvp(self, tangents, inputs, result):
        return index_select(tangents[0], self.dim, self.index)


class MaskedSelectBackward0(IndexBackward0):
    # PyTorch's masked_select_backward: zeros(...).masked_scatter_(mask, grad)
    double_backward_cls = MaskedScatterBackward0


class AliasBackward0(Node):
    jvp = view_jvp
    fw_view = True

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
        node.shape, node.key, node.redo = input._data.shape, key, tensor_fn
        record(out, node, (input,))
    return out


ZERO_DIM_INDEX = ("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
                  "to convert a 0-dim tensor to a number")


def getitem(input, key):
    nd = input._data.ndim
    if key.__class__ is int and not nd:
        # PyTorch's single-index path: only index 0 gets the hint; tuples say "too many indices".
        raise IndexError(ZERO_DIM_INDEX if key == 0 else
                         f"index {key} is out of bounds for dimension 0 with size {input._size0_slot}")
    if key.__class__ is int:  # ``x[i]``: what split and _views make of it, without them
        size = input._data.shape[0]
        if not -size <= key < size:
            raise IndexError(f"index {key} is out of bounds for dimension 0 with size {size}")
        if nd > 1:  # _basic inline: a row is a view already, without its Ellipsis
            fn = lambda x, i=key: select(x, 0, i)  # noqa: E731
            out = _view_chain(_make(input._data[key]), input, fn, lambda a, i=key: a[i])
            if grad_on(input):
                node = SelectBackward0()
                node.shape, node.key, node.redo = input._data.shape, (key, Ellipsis), fn
                record(out, node, (input,))
            return out
        return _basic(input, (key,), SelectBackward0, lambda x, i=key: select(x, 0, i))
    if key.__class__ is slice:
        if not nd:
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        # A lone slice always records SliceBackward0, even ``x[:]`` (PyTorch's single-index path).
        return slice_dim(input, 0, key.start, key.stop, key.step)
    basic, placed = index_key.split(index_key.items(key), nd)
    out = _views(input, basic)
    if placed:
        _stale_first(out)  # at::index reads the input's grad_fn before its kernel checks the indices
        key, expanded = index_key.advanced_key(out._data.shape, placed)
        try:
            data = out._data[key]
        except IndexError:  # NumPy checks what PyTorch checks last; PyTorch's message then
            index_key.check_values(out._data.shape, expanded)
            raise
        return _read(out, key, data=data)
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
            # PyTorch skips a slice given as 0 (or none) to the end or past it with step 1; ``-n:``
            # keeps everything too, but is still recorded.
            size = out._data.shape[dim]
            if not ((k.start is None or k.start == 0) and (k.stop is None or k.stop >= size)
                    and (k.step is None or k.step == 1)):
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


@numpy_names
def index_select(input, dim, index):
    nd = input._data.ndim
    d = _wrap_dim(dim, nd)
    key = (slice(None),) * d + (index._data,)
    # the node's attributes come before record, which runs the JVP (it reads dim and index)
    return _read(input, key, IndexSelectBackward0, dim=dim, axis=d - max(nd, 1), index=index,
                 source_shape=input._data.shape[:d] + index._data.shape + input._data.shape[d + 1:])


def masked_select(input, mask):
    out = _read(input, (np.broadcast_to(mask._data, input._data.shape),), MaskedSelectBackward0)
    if out._grad_fn is not None:
        out._grad_fn.save(self=input)  # PyTorch saves it (masked_select_backward), so writes to it are caught
    return out


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

    def jvp(self, tangents, inputs, result):
        # derivatives.yaml: self_t.masked_fill(mask, value_t), value_t zeros for a number value
        self_t = tangents[0] if tangents[0] is not None else _zeros_for(inputs[0], result)
        value_t = tangents[1] if len(tangents) > 1 and tangents[1] is not None else 0.0
        return masked_fill(self_t, self.mask, value_t)


def _zeros_for(x, like):
    """A missing tangent of a linear op's input: zeros of the input's shape, the result's dtype."""
    return _make(np.zeros(x._data.shape, like._data.dtype))


class MaskedFillBackward1(MaskedFillBackward0):
    pass


def masked_fill(input, mask, value):
    fill = value._data if isinstance(value, Tensor) else value
    # PyTorch fills a contiguous clone of the (broadcast) input
    out = _make(np.asarray(np.where(mask._data, np.asarray(fill, dtype=input._data.dtype), input._data), order="C"))
    if grad_on(input, value):
        node = MaskedFillBackward1() if isinstance(value, Tensor) else MaskedFillBackward0()
        node.mask = mask
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
        shape = g_source._data.shape[:batch_ndim[0]] + self.source_shape
        # derivatives.yaml: grad.index_select(dim, index).expand_as(source); a 0-dim source reshapes.
        g_source = expand(g_source, shape) if g_source._data.ndim == len(shape) else g_source.reshape(shape)
        from .pointwise import mul_scalar  # maybe_multiply(..., alpha): mul.Scalar, MulBackward1
        return g_self, (g_source if self.alpha == 1 else mul_scalar(g_source, self.alpha))

    def jvp(self, tangents, inputs, result):
        if len(inputs) == 1:  # index_select's backward (zeros.index_add_): the same scatter of the tangent
            node = IndexAddBackward0()
            node.__dict__.update({k: v for k, v in self.__dict__.items()
                                  if k in ("alpha", "dim", "source_dim", "source_shape", "axis", "index", "key")})
            node.save(index=self.index)
            return _scatter(tangents[0], result._data.shape, self.key, node)
        # derivatives.yaml: at::index_add(self_t, dim, index, maybe_multiply(source_t, alpha))
        from ..forward_mode import formula_tangents
        self_t, source_t = formula_tangents(tangents, inputs, result)
        if self_t is None:
            self_t = _zeros_for(inputs[0], result)
        if source_t is None:
            return self_t
        if self.alpha != 1:
            from .pointwise import mul_scalar
            source_t = mul_scalar(source_t, self.alpha)
        return index_add(self_t, self.dim, self.index, source_t)


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
        node.index = index
        node.save(index=index, source=source)
        record(out, node, (input, source))
    return out


from .setitem import setitem  # noqa: E402  (it builds on the views above)
