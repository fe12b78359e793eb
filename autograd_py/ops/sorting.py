"""sort, argsort, msort and topk: values in order along a dim, with the indices they came from.

Like PyTorch's CPU kernels, sorting is stable (ties keep their order, ``stable=False`` included)
and NaN counts as larger than every number. The backward puts each gradient back where its value
came from (a scatter by the indices), written in Tensor ops.
"""
from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim
from .base import _make, batch_ndim, batched, grad_on, np, record, written_in_place
from ._stl_select import topk_row
from .extremes import _RETURN_TYPES
from .gather import gather, scatter_into


class SortBackward0(Node):
    saves = ("indices",)
    keeps = ("dim", "self_sym_sizes")

    def jvp(self, tangents, inputs, result):
        # the tangent gathered by the indices (gather_with_keepdimed_indices / gather)
        if not self.shape:
            return tangents[0]
        return gather(tangents[0], self.axis, self.indices)

    def backward(self, grad):
        if not self.shape:
            return grad
        # PyTorch's value_selecting_reduction_backward fills zeros, then scatters in place: two writes
        return written_in_place(
            scatter_into(batched(grad, self.shape), self.axis + batch_ndim[0], self.saved("indices"), grad), 2)


class SortBackward1(SortBackward0):
    pass


class TopkBackward0(SortBackward0):
    pass


def _order(data, axis, descending):
    """Stable argsort along ``axis``; NaN sorts as the largest value, in either direction."""
    if not descending:
        return np.argsort(data, axis=axis, kind="stable")
    key = data.astype(np.float64 if data.dtype.kind == "f" else np.int64)
    nan_last = ~np.isnan(key) if data.dtype.kind == "f" else np.zeros(key.shape, dtype=bool)
    # lexsort sorts along the last axis by the last key first: NaNs first, then larger values first.
    moved = [np.moveaxis(k, axis, -1) for k in (-key, nan_last)]
    return np.moveaxis(np.lexsort(moved, axis=-1), -1, axis)


def _sorted(input, dim, node_cls, order, preserve=False):
    """Values and indices of ``input`` taken along ``dim`` in ``order(data, axis)``'s index order
    (``preserve``: laid out as ``input``, as sort's ``empty_like`` outputs are)."""
    data = input._data
    flat = data.reshape(1) if data.ndim == 0 else data
    d = _wrap_dim(dim, data.ndim)
    idx = order(flat, d)
    # C-contiguous as PyTorch's results (moveaxis leaves the order along ``dim``; the memory layout
    # decides views and overlap checks later)
    idx = np.ascontiguousarray(idx)
    values = np.take_along_axis(flat, idx, axis=d).reshape(idx.shape if data.ndim else ())
    if preserve and not data.flags.c_contiguous:
        values, idx = _laid_out_as(data, values), _laid_out_as(data, idx)
    indices = _make(idx.reshape(values.shape).astype(np.int64))
    out = _make(values)
    if grad_on(input):
        node = node_cls()
        node.shape, node.dim, node.axis = data.shape, dim, d - max(data.ndim, 1)
        node.save(indices=indices)
        node.indices = indices  # for the JVP, which may run with nothing saved
        record(out, node, (input,))
    return out, indices


def _laid_out_as(d, a):
    from .pointwise import empty_preserving
    out = empty_preserving(d, a.dtype)
    out[...] = a
    return out


def _topk_order(data, axis, k, largest, sorted):
    """PyTorch's topk positions: NumPy's order where it is the same, GCC's selection where ties
    (or ``sorted=False``) make the algorithm show."""
    moved = np.moveaxis(data, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    idx = np.array(np.moveaxis(_order(data, axis, largest), axis, -1).reshape(rows.shape)[:, :k])
    if k:
        ascending = np.sort(rows, axis=-1)
        tied = ascending[:, 1:] == ascending[:, :-1]
        if rows.dtype.kind == "f":
            tied |= np.isnan(ascending[:, 1:]) & np.isnan(ascending[:, :-1])
        for r in np.flatnonzero(tied.any(axis=-1) if sorted else np.ones(len(rows), dtype=bool)):
            idx[r] = topk_row(rows[r].tolist(), k, largest, sorted)
    return np.moveaxis(idx.reshape(moved.shape[:-1] + (k,)), -1, axis)


_STABLE_NOT_GIVEN = object()


@numpy_names
def sort(input, dim=-1, descending=False, *, stable=_STABLE_NOT_GIVEN):
    """Sorts ``input`` along ``dim``, ascending unless ``descending``.

    Returns:
        ``torch.return_types.sort(values, indices)``; ``values`` has ``grad_fn=<SortBackward0>``.

    Example::

        >>> torch.tensor([3., 1., 2.]).sort()
        torch.return_types.sort(
        values=tensor([1., 2., 3.]),
        indices=tensor([1, 2, 0]))
    """
    # Passing ``stable`` at all picks PyTorch's other overload (sort.stable), hence the other node name.
    node_cls = SortBackward0 if stable is _STABLE_NOT_GIVEN else SortBackward1
    values, indices = _sorted(input, dim, node_cls, lambda data, axis: _order(data, axis, descending), True)
    return _RETURN_TYPES["sort"](values, indices)


@numpy_names
def argsort(input, dim=-1, descending=False, *, stable=False):
    """The indices that sort ``input`` along ``dim`` (``sort(...).indices``)."""
    return _make(_order(input._data.reshape(1) if input._data.ndim == 0 else input._data,
                        _wrap_dim(dim, input._data.ndim), descending).reshape(input._data.shape).astype(np.int64))


def msort(input):
    """``sort(input, dim=0).values``."""
    return sort(input, 0).values


@numpy_names
def topk(input, k, dim=-1, largest=True, sorted=True):
    """The ``k`` largest (or, with ``largest=False``, smallest) values along ``dim``, largest first.

    Returns:
        ``torch.return_types.topk(values, indices)``; ``values`` has ``grad_fn=<TopkBackward0>``.
        Which of several tied values come back, and in what order (``sorted=False``), is what
        PyTorch's CPU kernel gives: GCC's ``nth_element``/``partial_sort``, repeated step for step.
    """
    d = _wrap_dim(dim, input._data.ndim)
    size = input._data.shape[d] if input._data.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    values, indices = _sorted(input, dim, TopkBackward0,
                              lambda data, axis: _topk_order(data, axis, k, largest, sorted))
    return _RETURN_TYPES["topk"](values, indices)
