"""What every reduction shares: wrapping its dims, expanding a gradient back over them, and its
node base class."""

from ..node import Node
from .._tensor import _wrap_dims
from .base import Tensor, batch_ndim, np
from .shape import _expanded, _unsqueezed, expand, expand_scalar, unsqueeze


def _dims(dim, ndim):
    """Normalises ``dim`` (None, int, or a sequence) to a sorted tuple of non-negative dims."""
    if dim is None:
        return tuple(range(ndim))
    return _wrap_dims(dim, ndim)


def _input_dims(input, dim, ndim):
    """_dims for an op on ``input``: a stale no_grad view raises its error before a dim error, as
    PyTorch reads the input's grad_fn before the kernel wraps dims."""
    try:
        return _dims(dim, ndim)
    except IndexError:
        from .base import _stale_first
        _stale_first(input)
        raise


def _expand_back(t, shape, dims, keepdim, nb=0):
    """Undoes a reduction's shape change: re-inserts reduced dims, then expands.

    ``nb`` leading batch dims (a vectorized backward) are kept in front. ``t`` may be NumPy data
    (a formula running in ``numpy_backward``, never batched): the same views, as arrays.
    """
    if t.__class__ is not Tensor and not isinstance(t, Tensor):
        a = np.asarray(t)
        if not keepdim:
            for d in dims:
                a = _unsqueezed(a, d)
        return _expanded(a, tuple(shape))
    if not keepdim:
        for d in dims:
            t = unsqueeze(t, d + nb)
    return expand(t, t._data.shape[:nb] + tuple(shape))


class _Reduction(Node):
    """Shared bookkeeping: input shape, reduced dims, keepdim."""

    over_all = False  # reduced with no dim given: sum_backward expands the 0-dim grad as it is

    def _back(self, grad):
        if self.over_all and not batch_ndim[0]:
            if grad.__class__ is not Tensor and not isinstance(grad, Tensor):
                return _expanded(np.asarray(grad), tuple(self.shape))  # NumPy data (numpy_backward)
            return expand_scalar(grad, self.shape)
        return _expand_back(grad, self.shape, self.dims, self.keepdim, batch_ndim[0])

    @property
    def self_sym_numel(self):
        return int(np.prod(self.shape))

    def _restored(self, t):
        """``t`` (shaped as the result) with the reduced dims put back as size 1, so it broadcasts
        against the input (derivatives.yaml's restore_reduced_dims / unsqueeze_multiple)."""
        if not self.keepdim and len(self.shape):
            for d in self.dims:
                t = unsqueeze(t, d)
        return t

    def _summed(self, t):
        """``t.sum(dim, keepdim)`` over the reduced dims (all of them for a full reduction)."""
        from .reduction import sum  # the op, defined beside sum/mean/prod's nodes
        return sum(t, self.dims, self.keepdim) if len(self.shape) else t


def _user_dims(dim):
    """``dim`` as PyTorch saves an int[] argument: a tuple, as the user wrote it."""
    return (dim,) if isinstance(dim, int) else tuple(dim)


def _reduced(input, dims, keepdim, node, **saved):
    node.shape, node.dims, node.keepdim = input._data.shape, dims, keepdim
    if saved:
        node.save(**saved)
    return node


def _as_result(t, result):
    """A tangent in the result's dtype (a ``dtype=`` argument casts the result)."""
    if t._data.dtype != result._data.dtype:
        from .pointwise import to_dtype
        t = to_dtype(t, result._data.dtype)
    return t
