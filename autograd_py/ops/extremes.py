"""max/min (with indices, or over everything), amax/amin and argmax/argmin."""

from ..signatures import numpy_names
from .._tensor import _wrap_dim
from .base import _make, batch_ndim, batched, grad_on, np, record, written_in_place
from .comparison import where
from .shape import squeeze, unsqueeze
from .gather import gather, scatter_into
from .reduce_dims import _dims, _reduced, _Reduction


class _ReturnType(tuple):
    """``torch.return_types.max(values=..., indices=...)``."""

    _name = "max"
    _fields = ("values", "indices")  # a named tuple to pytrees (torch.func, vmap)

    def __new__(cls, values, indices):
        return tuple.__new__(cls, (values, indices))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return (f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})")


def _return_type(name):
    return type(name, (_ReturnType,), {"_name": name})


_RETURN_TYPES = {n: _return_type(n) for n in ("max", "min", "sort", "topk", "kthvalue", "mode", "median")}


class MaxBackward1(_Reduction):
    saves = ("result", "self")

    def jvp(self, tangents, inputs, result):
        # evenly_read_jvp: ties share the tangent; a NaN result (nothing equals it) reads 0 / 0
        from .reduction import sum  # the op (reduction imports this module)
        mask = inputs[0] == result
        count = _make(np.asarray(mask._data.sum(), np.int64))  # mask.sum()
        return sum(mask * (tangents[0] / count))

    def backward(self, grad):
        # PyTorch's evenly_distribute_backward: ties share the gradient evenly, and a NaN result
        # (NaN wins) sends it to the NaN elements: zeros_like(input).masked_fill_(mask, grad / count).
        from .advanced_indexing import masked_fill
        x, result = self.saved("self"), self.saved("result")
        mask = _make(np.isnan(x._data)) if np.isnan(result._data) else x == result
        if batch_ndim[0]:
            return written_in_place(where(mask, self._back(grad) / mask._data.sum(), 0.0))
        zeros = _make(np.zeros(x._data.shape, dtype=grad._data.dtype))
        return written_in_place(masked_fill(zeros, mask, grad / int(mask._data.sum())))


class MinBackward1(MaxBackward1):
    pass


class MaxBackward0(_Reduction):
    saves = ("indices",)
    keeps = ("dim", "keepdim", "self_sym_sizes")

    def jvp(self, tangents, inputs, result):
        # gather_with_keepdimed_indices(self_t, dim, indices, keepdim)
        if not len(self.shape):
            return tangents[0]
        d = self.dims[0]
        picked = gather(tangents[0], d, self._restored(self.picked))
        return picked if self.keepdim else squeeze(picked, d)

    def backward(self, grad):
        index = self.saved("indices")
        d, nb = self.dims[0], batch_ndim[0]
        if not self.keepdim and self.shape:
            grad, index = unsqueeze(grad, d + nb), unsqueeze(index, d)
        # PyTorch's value_selecting_reduction_backward fills zeros, then scatters in place: two writes
        return written_in_place(scatter_into(batched(grad, self.shape), d + nb, index, grad), 2)


class MinBackward0(MaxBackward0):
    pass


def _check_nonempty(data, dims, name):
    """PyTorch's error for picking a value out of an empty reduced dim."""
    if data.size == 0:
        for d in dims:
            if data.shape[d] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _extreme(input, dim, keepdim, np_arg, np_val, name, full_cls, dim_cls):
    if dim is not None and input._data.ndim:
        _check_nonempty(input._data, (_wrap_dim(dim, input._data.ndim),), name)
    if dim is None:
        if input._data.size == 0:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        out = _make(np_val(input._data))
        if grad_on(input):
            node = full_cls()
            _reduced(input, _dims(None, input._data.ndim), False, node, self=input)
            node.save_output(result=out)
            record(out, node, (input,))
        return out
    d = _wrap_dim(dim, input._data.ndim)
    data = input._data if input._data.ndim else input._data.reshape(1)
    idx = np.expand_dims(np_arg(data, axis=d if input._data.ndim else 0), d if input._data.ndim else 0)
    values = np.take_along_axis(data, idx, axis=d if input._data.ndim else 0)
    if not keepdim or not input._data.ndim:
        values, idx = values.reshape(input._data.shape[:d] + input._data.shape[d + 1:]), \
            idx.reshape(input._data.shape[:d] + input._data.shape[d + 1:])
    out, indices = _make(values), _make(idx.astype(np.int64))
    if not values.ndim and input._data.ndim:
        # PyTorch makes the keepdim shape, then squeezes it in place (see Tensor._size0_slot).
        out._size0_slot = indices._size0_slot = 1
    if grad_on(input):
        node = dim_cls()
        node.dim = dim
        _reduced(input, (d,), keepdim, node, indices=indices)
        node.picked = indices  # for the JVP, which may run with nothing saved
        record(out, node, (input,))
    return _RETURN_TYPES[name](out, indices)


@numpy_names
def max(input, dim=None, keepdim=False):
    from .base import Tensor
    if isinstance(dim, Tensor):
        from .comparison import maximum
        return maximum(input, dim)
    return _extreme(input, dim, keepdim, np.argmax, np.max, "max", MaxBackward1, MaxBackward0)


@numpy_names
def min(input, dim=None, keepdim=False):
    from .base import Tensor
    if isinstance(dim, Tensor):
        from .comparison import minimum
        return minimum(input, dim)
    return _extreme(input, dim, keepdim, np.argmin, np.min, "min", MinBackward1, MinBackward0)


class AmaxBackward0(_Reduction):
    def jvp(self, tangents, inputs, result):
        # amaxamin_jvp: where(mask, self_t, 0).sum(dim, keepdim) / mask.sum(dim, keepdim)
        x, t = inputs[0], tangents[0]
        if not len(self.shape):
            return t
        mask = x == self._restored(result)
        count = _make(np.sum(mask._data, axis=self.dims, keepdims=self.keepdim).astype(result._data.dtype))
        return self._summed(where(mask, t, 0.0)) / count

    def backward(self, grad):
        # Ties along the reduced dims share the gradient evenly, unlike max(dim)'s single index.
        # scale_grad_by_count: (grad / mask.sum(dims, keepdim=True)) * mask, so a NaN result (no
        # element equals it) gives NaN, as in PyTorch.
        x, result = self.saved("self"), self.saved("result")
        nb = batch_ndim[0]
        if not self.keepdim:
            for d in self.dims:
                grad, result = unsqueeze(grad, d + nb), unsqueeze(result, d)
            if self.restores_a_dim and not nb:
                # restore_reduced_dims gives a 0-dim input's dim back (size 1): the engine then
                # sums the (1,)-shaped gradient into the input's shape, as PyTorch's does
                grad, result = unsqueeze(grad, 0), unsqueeze(result, 0)
        mask = x == result
        return grad / _make(np.sum(mask._data, axis=self.dims, keepdims=True)) * mask


class AminBackward0(AmaxBackward0):
    pass


def _first_zero_sign(data, dims, value, keepdim):
    """amax/amin give a tie of 0.0 and -0.0 the sign of the first one met, as PyTorch's kernels
    (NumPy's keep a later one): -0.0 then 0.0 reduce to -0.0. "First" is in memory order, as
    TensorIterator walks the reduced dims outermost stride first."""
    if data.dtype.kind != "f" or not data.size or not np.any(value == 0):
        return value
    nd = data.ndim
    kept = tuple(d for d in range(nd) if d not in dims)
    walk = tuple(sorted(dims, key=lambda d: -abs(data.strides[d])))
    rows = np.transpose(data, kept + walk).reshape(tuple(data.shape[d] for d in kept) + (-1,))
    first = np.take_along_axis(rows, np.argmax(rows == 0, axis=-1)[..., None], axis=-1)[..., 0]
    if keepdim:
        first = first.reshape(value.shape)
    return np.where(value == 0, first, value).astype(value.dtype, copy=False)


def _amax_amin(input, dim, keepdim, np_fn, cls):
    dims = _dims(None if isinstance(dim, (tuple, list)) and not dim else dim, input._data.ndim)
    _check_nonempty(input._data, dims, cls.__name__[:4].lower())
    out = _make(np.asarray(_first_zero_sign(input._data, dims, np_fn(input._data, axis=dims, keepdims=True)
                                            if keepdim else np_fn(input._data, axis=dims), keepdim),
                           order="C"))
    if grad_on(input):
        node = cls()
        _reduced(input, dims, keepdim, node, self=input)
        node.restores_a_dim = not input._data.ndim and dim is not None and dim != () and dim != []
        node.save_output(result=out)
        record(out, node, (input,))
        if node.restores_a_dim:
            node._input_meta = [(input._data.shape, input._data.dtype)]  # the engine sums the (1,) grad
    return out


@numpy_names
def amax(input, dim=(), keepdim=False):
    """The maximum over ``dim`` (all dims by default); tied maxima share the gradient."""
    return _amax_amin(input, dim, keepdim, np.max, AmaxBackward0)


@numpy_names
def amin(input, dim=(), keepdim=False):
    """The minimum over ``dim`` (all dims by default); tied minima share the gradient."""
    return _amax_amin(input, dim, keepdim, np.min, AminBackward0)


@numpy_names
def argmax(input, dim=None, keepdim=False):
    if dim is None:
        return _make(np.int64(np.argmax(input._data)))
    if input._data.ndim:
        _check_nonempty(input._data, (_wrap_dim(dim, input._data.ndim),), "argmax")
    return max(input.detach(), dim, keepdim)[1]


@numpy_names
def argmin(input, dim=None, keepdim=False):
    if dim is None:
        return _make(np.int64(np.argmin(input._data)))
    if input._data.ndim:
        _check_nonempty(input._data, (_wrap_dim(dim, input._data.ndim),), "argmin")
    return min(input.detach(), dim, keepdim)[1]
