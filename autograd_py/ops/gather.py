"""gather, and the scatters its backward (and max/sort's) write gradients with."""

from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim
from .base import _make, batch_ndim, batched, grad_on, np, record, written_in_place


class GatherBackward0(Node):
    saves = ("index", "self")
    keeps = ("dim", "sparse_grad")
    sparse_grad = False

    def jvp(self, tangents, inputs, result):
        return gather(tangents[0], self.dim, self.index)  # auto_linear

    def backward(self, grad):
        # PyTorch's gather_backward: zeros(...).scatter_add_(dim, index, grad)
        return written_in_place(
            scatter_add_into(batched(grad, self.shape), self.axis + batch_ndim[0], self.saved("index"), grad))


class ScatterAddBackward0(Node):
    supports_batched = False

    def jvp(self, tangents, inputs, result):
        return scatter_add_into(result._data.shape, self.dim, self.index, tangents[1])  # linear in src

    def backward(self, grad):
        return None, gather(grad, self.dim, self.saved("index"))


@numpy_names
def gather(input, dim, index):
    """Picks ``input`` values along ``dim`` at ``index`` (``out[i][j] = input[i][index[i][j]]`` for dim=1)."""
    d = _wrap_dim(dim, input._data.ndim)
    # PyTorch gathers from and with 0-dim tensors as if they were 1-dim of size 1.
    picked = np.take_along_axis(np.atleast_1d(input._data), np.atleast_1d(index._data), axis=d)
    out = _make(picked.reshape(index._data.shape))
    if grad_on(input):
        node = GatherBackward0()
        node.shape, node.dim, node.axis, node.index = input._data.shape, dim, d, index
        node.save(index=index, self=input)
        record(out, node, (input,))
    return out


class ScatterBackward0(Node):
    supports_batched = False

    def jvp(self, tangents, inputs, result):
        return scatter_into(result._data.shape, self.dim, self.index, tangents[1])  # linear in src

    def backward(self, grad):
        return None, gather(grad, self.dim, self.saved("index"))


def scatter_into(shape, dim, index, src):
    """``zeros(shape).scatter_(dim, index, src)``: how PyTorch puts back the gradient of values picked
    once each (``max(dim)``, ``sort``, ``topk``: its value_selecting_reduction_backward)."""
    data = np.zeros(shape, dtype=src._data.dtype)
    # A 0-dim input counts as one size-1 dim, as in gather.
    into = data if data.ndim > dim else data.reshape(data.shape + (1,))
    values = src._data if src._data.ndim > dim else src._data.reshape(src._data.shape + (1,))
    np.put_along_axis(into, np.broadcast_to(np.atleast_1d(index._data), values.shape), values, axis=dim)
    out = _make(data)
    if grad_on(src):
        node = ScatterBackward0()
        node.dim, node.index = dim, index
        node.save(index=index)
        record(out, node, (None, src))
    return out


def scatter_add_into(shape, dim, index, src):
    """A zero tensor of ``shape`` with ``src`` added at ``index`` along ``dim`` (the adjoint of gather)."""
    data = np.zeros(shape, dtype=src._data.dtype)
    # A 0-dim input (or index) counts as one size-1 dim, as in gather.
    into = data if data.ndim > dim else data.reshape(data.shape + (1,))
    values = src._data if src._data.ndim > dim else src._data.reshape(src._data.shape + (1,))
    idx = np.broadcast_to(np.atleast_1d(index._data), values.shape)  # a batched src has extra leading dims
    full_index = list(np.indices(idx.shape, sparse=True))
    full_index[dim] = idx
    np.add.at(into, tuple(full_index), values)
    out = _make(data)
    if grad_on(src):
        node = ScatterAddBackward0()
        node.dim, node.index = dim, index
        node.save(index=index)
        record(out, node, (None, src))  # scatter_add_ into zeros: the zeros need no gradient
    return out
