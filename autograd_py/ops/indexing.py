"""Indexing: select/slice views and ``x[key]``, the reader every key goes through.

Basic indexing becomes a chain of view ops, one node per index item, as in PyTorch; advanced
indexing is one ``IndexBackward0`` node, built by ``advanced_indexing.py``. Writes
(``x[key] = v``) are in ``setitem.py``.
"""
from weakref import ref as _weakref

from .. import forward_mode, grad_mode
from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim
from . import index_key
from .advanced_indexing import _batched_key, _read, embed
from .base import Tensor, _make, _new, _stale_first, batched, grad_on, record
from .shape import _view_chain, unsqueeze, view_jvp
from .zerotensor import made as zeros_made

_grad_state, _fw_levels = grad_mode._state, forward_mode.levels


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
            attrs = input.__dict__
            if input._base is None and _grad_state[0] and not _fw_levels and not zeros_made[0] and (
                    "_view_fn" not in attrs):
                # _view_chain's steps for a row of a tensor that is no view (W3's eye[i]), in place
                # of its calls: as_view (grad mode on), the view functions, the root's list of views
                out = _new(Tensor)
                out._data = input._data[key]
                out._base = input
                out._version_counter = input._version_counter
                if input._creation_meta is not None:
                    out._creation_meta = input._creation_meta
                out._view_fn, out._np_view_fn = fn, lambda a, i=key: a[i]
                views = attrs.get("_views")
                if views is None or len(views) >= 64 and not len(views) & (len(views) - 1):
                    out = _view_chain(out, input, fn, out._np_view_fn)  # its first view, or a sweep
                else:
                    views.append(_weakref(out))
            else:
                out = _view_chain(_make(input._data[key]), input, fn, lambda a, i=key: a[i])
            if (_grad_state[0] and input._requires_grad) or _fw_levels and grad_on(input):
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


from .setitem import setitem  # noqa: E402  (it builds on the views above)
