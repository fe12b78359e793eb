"""Advanced indexing: reads by index tensors and masks (``x[idx]``, ``index_select``,
``masked_select``, ``nonzero``), the ops that write by them out of place (``index_add``,
``masked_fill``), and the scatter their backwards end in.

Apart from ``indexing.py`` (select/slice views and ``x[key]``) because these ops copy instead of
viewing and record one node each. ``embed``, the zeros-plus-gradient-at-a-key that select's and
slice's backwards return too, lives here with ``_scatter``, which builds on it, so that
``indexing.py`` imports downward only.
"""
from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim
from .base import Tensor, _make, batch_ndim, batched, grad_on, np, record, written_in_place
from .shape import expand


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
