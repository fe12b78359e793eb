"""Diagonals: ``diagonal`` (a view), ``diag_embed`` (its placement into zeros), ``diag`` and ``trace``.

``diagonal`` and ``diag_embed`` are each other's transpose, so each one's backward is the other
applied to the gradient (with the gradient's leading batch dims, when it has any).
"""
from ..node import Node
from .._tensor import _wrap_dim
from .base import _make, batch_ndim, grad_on, np, record
from .shape import _view_chain, view_jvp


def _length(n1, n2, offset):
    return max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))


def _np_diagonal(a, offset, d1, d2):
    """A writable NumPy view of the diagonal over dims ``d1, d2``, moved to the last dim."""
    moved = np.moveaxis(a, (d1, d2), (-2, -1))
    n1, n2 = moved.shape[-2:]
    length = _length(n1, n2, offset)
    start = moved[..., max(0, -offset):, max(0, offset):] if length else moved[..., :0, :0]
    strides = moved.strides[:-2] + (moved.strides[-2] + moved.strides[-1],)
    return np.lib.stride_tricks.as_strided(start, moved.shape[:-2] + (length,), strides, writeable=a.flags.writeable)


def _dims(nd, dim1, dim2):
    d1, d2 = _wrap_dim(dim1, nd), _wrap_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


class DiagonalBackward0(Node):
    jvp = view_jvp
    fw_view = True
    keeps = ("dim1", "dim2", "offset", "self_sym_sizes")

    def backward(self, grad):
        return _embed(grad, self.shape, self.offset, self.d1, self.d2)


class DiagonalBackward0_copy(DiagonalBackward0):  # noqa: N801 (PyTorch's name for diag of a matrix)
    fw_view = False

    def jvp(self, tangents, inputs, result):
        # diagonal_copy's tangent: the diagonal of self_t copied into a new tensor (CopyBackwards)
        from .inplace import copy_
        part = diagonal(tangents[0], self.offset, self.d1, self.d2)
        return copy_(_make(np.empty(part._data.shape, part._data.dtype)), part)


class DiagonalBackwardBackward0(Node):
    keeps = ("dim1", "dim2", "offset")

    def jvp(self, tangents, inputs, result):
        return _embed(tangents[0], self.shape, self.offset, self.d1, self.d2)

    def backward(self, grad):
        return _take(grad, self.offset, self.d1, self.d2)


class DiagEmbedBackward0(Node):
    keeps = ("dim1", "dim2", "offset")

    def jvp(self, tangents, inputs, result):
        return diag_embed(tangents[0], self.offset, self.dim1, self.dim2)

    def backward(self, grad):
        return _take(grad, self.offset, self.d1, self.d2)


def _take(grad, offset, d1, d2):
    """The diagonal of a gradient (as a view), past its leading batch dims."""
    nb = batch_ndim[0]
    return diagonal(grad, offset, d1 + nb, d2 + nb)


def _embed(src, shape, offset, d1, d2, cls=DiagonalBackwardBackward0):
    """Zeros of ``shape`` (after ``src``'s batch dims) with ``src``'s last dim on the diagonal."""
    nb = src._data.ndim - (len(shape) - 1)
    data = np.zeros(src._data.shape[:nb] + tuple(shape), dtype=src._data.dtype)
    _np_diagonal(data, offset, d1 + nb, d2 + nb)[...] = src._data
    out = _make(data)
    if grad_on(src):
        node = cls()
        node.dim1, node.dim2, node.offset, node.d1, node.d2 = d1, d2, offset, d1, d2
        node.shape = tuple(shape)
        record(out, node, (src,))
    return out


def diagonal(input, offset=0, dim1=0, dim2=1):
    """A view of the diagonal over ``dim1`` and ``dim2``, as the last dim (see ``torch.diagonal``)."""
    nd = input._data.ndim
    d1, d2 = _dims(nd, dim1, dim2)
    np_fn = (lambda a: _np_diagonal(a, offset, d1, d2))
    out = _view_chain(_make(np_fn(input._data)), input, lambda t: diagonal(t, offset, d1, d2), np_fn)
    if grad_on(input):
        node = DiagonalBackward0()
        node.dim1, node.dim2, node.offset, node.d1, node.d2 = dim1, dim2, offset, d1, d2
        node.shape = input._data.shape
        record(out, node, (input,))
    return out


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """A tensor whose diagonals over ``dim1, dim2`` are ``input``'s last dim, zeros elsewhere."""
    nd = input._data.ndim + 1
    d1, d2 = _dims(nd, dim1, dim2)
    n = input._data.shape[-1] + abs(offset)
    rest = list(input._data.shape[:-1])
    shape = []
    for d in range(nd):
        shape.append(n if d in (d1, d2) else rest.pop(0))
    out = _embed(input, shape, offset, d1, d2, DiagEmbedBackward0)
    if out.grad_fn is not None:
        out.grad_fn.dim1, out.grad_fn.dim2 = dim1, dim2
    return out


def diag(input, diagonal=0):
    """A vector's diagonal matrix, or a matrix's diagonal as a vector (a copy)."""
    nd = input._data.ndim
    if nd == 1:
        out = diag_embed(input, diagonal, 0, 1)
        if out.grad_fn is not None:
            out.grad_fn.dim1, out.grad_fn.dim2 = 0, 1
        return out
    if nd != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {nd}D")
    out = _make(np.ascontiguousarray(_np_diagonal(input._data, diagonal, 0, 1)))
    if grad_on(input):
        node = DiagonalBackward0_copy()
        node.dim1, node.dim2, node.offset, node.d1, node.d2 = 0, 1, diagonal, 0, 1
        node.shape = input._data.shape
        record(out, node, (input,))
    return out


class TraceBackward0(Node):
    keeps = ("self_sym_sizes",)

    def jvp(self, tangents, inputs, result):
        return trace(tangents[0])

    def backward(self, grad):
        n1, n2 = self.shape
        nb = batch_ndim[0]
        if not nb:
            from .index_fill import trace_backward
            return trace_backward(grad, (n1, n2))
        g = grad.reshape(*grad.shape, 1)
        return _embed(g.expand(*grad.shape, min(n1, n2)), (n1, n2), 0, 0, 1)


def trace(input):
    """The sum of a matrix's main diagonal."""
    if input._data.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input._data.ndim}")
    out = _make(np.asarray(np.trace(input._data)))
    if grad_on(input):
        node = TraceBackward0()
        node.shape = input._data.shape
        record(out, node, (input,))
    return out
