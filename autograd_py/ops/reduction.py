"""Reductions: sum, mean, prod, max/min with indices, var/std/norm, gather, cumsum."""
import warnings

from .. import dtypes, grad_mode
from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim, _wrap_dims
from .base import _make, batch_ndim, batched, float_data, grad_on, np, record, written_in_place
from .comparison import where
from .pointwise import sgn
from .shape import expand, squeeze, unsqueeze


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

    ``nb`` leading batch dims (a vectorized backward) are kept in front.
    """
    if not keepdim:
        for d in dims:
            t = unsqueeze(t, d + nb)
    return expand(t, t._data.shape[:nb] + tuple(shape))


class _Reduction(Node):
    """Shared bookkeeping: input shape, reduced dims, keepdim."""

    over_all = False  # reduced with no dim given: sum_backward expands the 0-dim grad as it is

    def _back(self, grad):
        if self.over_all and not batch_ndim[0]:
            return expand(grad, self.shape)
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
        return sum(t, self.dims, self.keepdim) if len(self.shape) else t


def _user_dims(dim):
    """``dim`` as PyTorch saves an int[] argument: a tuple, as the user wrote it."""
    return (dim,) if isinstance(dim, int) else tuple(dim)


def _reduced(input, dims, keepdim, node, **saved):
    node.shape, node.dims, node.keepdim = input._data.shape, dims, keepdim
    if saved:
        node.save(**saved)
    return node


# ---------------------------------------------------------------------------- sum / mean / prod
def _as_result(t, result):
    """A tangent in the result's dtype (a ``dtype=`` argument casts the result)."""
    if t._data.dtype != result._data.dtype:
        from .pointwise import to_dtype
        t = to_dtype(t, result._data.dtype)
    return t


def _accurate(fn, data, dims, keepdim):
    """Reduces float32/16 in float64 and rounds once, which gives PyTorch's correctly rounded sums.
    The result is contiguous, as PyTorch's reductions are (NumPy follows the input's layout).
    float32 over trailing dims is added in PyTorch's own order instead (float_sum)."""
    if data.dtype == np.float32 and (fn is np.sum or fn is np.mean):
        from .float_sum import trailing_sum
        out = trailing_sum(data, dims, keepdim, mean=fn is np.mean)
        if out is not None:
            return out
    if data.dtype.kind == "f" and data.dtype.itemsize < 8:
        return np.asarray(fn(data, axis=dims, keepdims=keepdim, dtype=np.float64)).astype(data.dtype, order="C")
    return np.asarray(fn(data, axis=dims, keepdims=keepdim), order="C")
class SumBackward0(_Reduction):
    keeps = ("self_sym_sizes",)
    over_all = True

    def jvp(self, tangents, inputs, result):
        return _as_result(self._summed(tangents[0]), result)  # auto_linear

    def backward(self, grad):
        return self._back(grad)


class SumBackward1(_Reduction):
    keeps = ("dim", "keepdim", "self_sym_sizes")
    jvp = SumBackward0.jvp

    def backward(self, grad):
        return self._back(grad)


@numpy_names
def sum(input, dim=None, keepdim=False, dtype=None):
    data = input._data
    if dtype is not None:
        data = data.astype(dtypes.to_numpy_dtype(dtype))
    elif data.dtype.kind in "bui":
        data = data.astype(np.int64)
    dims = _input_dims(input, dim, data.ndim)
    out = _make(_accurate(np.sum, data, dims, keepdim))
    if grad_on(input):
        node = SumBackward0() if dim is None else SumBackward1()
        if dim is not None:
            node.dim = _user_dims(dim)
        record(out, _reduced(input, dims, keepdim, node), (input,))
    return out


class MeanBackward0(_Reduction):
    keeps = ("self_sym_numel", "self_sym_sizes")
    over_all = True

    def jvp(self, tangents, inputs, result):
        t = tangents[0]
        return _as_result(mean(t, self.dims, self.keepdim) if len(self.shape) else t, result)  # auto_linear

    def backward(self, grad):
        from .pointwise import div_scalar
        return div_scalar(self._back(grad), self.count)  # sum's backward / numel: DivBackward1


class MeanBackward1(MeanBackward0):
    keeps = ("dim", "keepdim", "self_sym_numel", "self_sym_sizes")
    over_all = False


@numpy_names
def mean(input, dim=None, keepdim=False, dtype=None):
    data = input._data if dtype is None else input._data.astype(dtypes.to_numpy_dtype(dtype))
    if data.dtype.kind != "f":
        raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating "
                           f"point or complex dtype. Got: {input.dtype.legacy_name[:-6]}")
    dims = _input_dims(input, dim, data.ndim)
    if data.size:
        out = _make(_accurate(np.mean, data, dims, keepdim))
    else:
        with warnings.catch_warnings():  # NaN for an empty mean, without NumPy's RuntimeWarning
            warnings.simplefilter("ignore", RuntimeWarning)
            out = _make(_accurate(np.mean, data, dims, keepdim))
    if grad_on(input):
        node = MeanBackward0() if dim is None else MeanBackward1()
        if dim is not None:
            node.dim = _user_dims(dim)
        node.count = int(np.prod([data.shape[d] for d in dims])) if data.ndim else 1
        record(out, _reduced(input, dims, keepdim, node), (input,))
    return out


class ProdBackward0(_Reduction):
    saves = ("result", "self")

    def jvp(self, tangents, inputs, result):
        # (prod_backward(ones_like(result), self, result) * self_t).sum(dim, keepdim)
        t, x = tangents[0], inputs[0]
        if not len(self.shape):
            return t
        zeros = np.count_nonzero(x._data == 0)
        if not zeros:
            return self._summed(t * (self._restored(result) / x))
        full = not isinstance(self, ProdBackward1)
        if full and zeros > 1:
            return _make(np.zeros(result._data.shape, result._data.dtype))
        from .cumprod import prod_safe_zeros_backward
        from .shape import reshape
        ones = _make(np.ones((1,) * (1 if full else x._data.ndim), x._data.dtype))
        if full:  # as prod_backward: the flattened input's product, viewed back
            others = reshape(prod_safe_zeros_backward(ones, reshape(x, (-1,)), 0), x._data.shape)
        else:
            others = prod_safe_zeros_backward(ones, x, self.dims[0])
        return self._summed(others * t)

    def backward(self, grad):
        x, result = self.saved("self"), self.saved("result")
        if not self.dims:
            return grad  # a 0-dim input is its own product
        # prod_backward: the reduced dims restored (broadcast, not expanded), then
        # grad * (result / input), or grad * (product of the others) where the input has zeros
        nb = batch_ndim[0]
        if not self.keepdim and (nb or isinstance(self, ProdBackward1)):
            for d in self.dims:
                grad, result = unsqueeze(grad, d + nb), unsqueeze(result, d)
        if not np.any(x._data == 0):
            return grad * (result / x)
        g = grad
        if grad_mode.is_grad_enabled():  # create_graph: keep it differentiable
            if nb:
                return g * _prod_of_others(x, self.dims)
            from .cumprod import prod_safe_zeros_backward
            if not isinstance(self, ProdBackward1):
                # PyTorch differentiates the flattened input's product, then views it back
                from .shape import reshape, view
                return view(prod_safe_zeros_backward(g, reshape(x, (-1,)), 0), x._data.shape)
            return prod_safe_zeros_backward(g, x, self.dims[0])
        if not nb:
            # prod_backward without a graph: several zeros in a full product give zeros_like; a
            # size-1 slice hands the gradient itself on (a view of it for the full product's
            # view_as), which a later accumulation may not add into in place.
            full = not isinstance(self, ProdBackward1)
            if full and np.count_nonzero(x._data == 0) > 1:
                return _make(np.zeros_like(x._data))
            if {x._data.shape[d] for d in self.dims} == {1}:
                from .shape import view
                return view(g, x._data.shape) if full else g
            if full:
                from .shape import view
                return view(g * _make(_others(x._data, self.dims)), x._data.shape)
        return g * _make(_others(x._data, self.dims))


def _others(data, dims):
    """Each element's product of the other elements of its reduced slice (exclusive cumprods):
    with zeros in the input, dividing the product by the element fails."""
    moved = np.moveaxis(data, dims, tuple(range(len(dims))))
    flat = moved.reshape((-1,) + moved.shape[len(dims):])
    before = np.cumprod(np.concatenate([np.ones_like(flat[:1]), flat[:-1]]), axis=0)
    after = np.cumprod(np.concatenate([np.ones_like(flat[:1]), flat[::-1][:-1]]), axis=0)[::-1]
    return np.ascontiguousarray(np.moveaxis((before * after).reshape(moved.shape), tuple(range(len(dims))), dims))


def _prod_of_others(x, dims):
    """Each element's product of the other elements of its reduced slice, from differentiable ops.

    Row ``i`` of a ``(k, k)`` matrix holds the slice with element ``i`` replaced by 1: O(k^2), so it is
    used only when the backward itself is recorded (``create_graph=True``).
    """
    from .shape import permute, reshape
    keep = [d for d in range(x._data.ndim) if d not in dims]
    order = keep + list(dims)
    moved = permute(x, order)
    k = int(np.prod([x._data.shape[d] for d in dims]))
    flat = reshape(moved, moved._data.shape[:len(keep)] + (k,))
    rows = where(_make(np.eye(k, dtype=bool)), 1.0, unsqueeze(flat, -2))
    others = reshape(prod(rows, -1), moved._data.shape)
    return permute(others, tuple(int(i) for i in np.argsort(order)))


class ProdBackward1(ProdBackward0):
    keeps = ("dim", "keepdim")

    pass


@numpy_names
def prod(input, dim=None, keepdim=False, dtype=None):
    data = input._data if dtype is None else input._data.astype(dtypes.to_numpy_dtype(dtype))
    if data.dtype.kind in "bui":
        data = data.astype(np.int64)
    dims = _dims(dim, data.ndim)
    out = _make(np.asarray(np.prod(data, axis=dims, keepdims=keepdim), order="C"))
    if grad_on(input):
        node = ProdBackward0() if dim is None else ProdBackward1()
        node.dim = dim
        _reduced(input, dims, keepdim, node, self=input)
        node.save_output(result=out)
        record(out, node, (input,))
    return out


# ---------------------------------------------------------------------------- max / min
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
        mask = inputs[0] == result
        return sum(tangents[0] * mask) / _make(np.asarray(mask._data.sum(), result._data.dtype))

    def backward(self, grad):
        # PyTorch's evenly_distribute_backward: ties share the gradient evenly, and a NaN result
        # (NaN wins) sends it to the NaN elements: zeros_like(input).masked_fill_(mask, grad / count).
        from .indexing import masked_fill
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


# ---------------------------------------------------------------------------- gather / scatter
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


# ---------------------------------------------------------------------------- statistics and norms
def _var_backward(node, grad, x):
    """FunctionsManual's var_backward: ``(2 / dof) * grad * (x - x.mean(dim, keepdim=True))``.

    Over all elements with ``dof <= 0`` it is inf, or NaN where ``x`` equals its mean (PyTorch's
    way of saying 0 / 0); over some dims ``2 / 0`` is inf, which the centred zeros make NaN.
    """
    from .pointwise import mul_scalar
    nb = batch_ndim[0]
    full = node.full
    if not node.keepdim and (nb or (not full and x._data.ndim > 1)):
        for d in node.dims:
            grad = unsqueeze(grad, d + nb)
    dof = node.dof
    if full:
        m = mean(x)
        if dof <= 0:
            # at::where(cond, nan, inf) of two numbers has the default dtype: a float64 input's
            # gradient then comes out float32, and the engine casts it back (ToCopyBackward0)
            return grad * _make(np.where(x._data == m._data, np.nan, np.inf).astype(dtypes.get_default_dtype().np))
        return mul_scalar(grad, 2.0 / dof) * (x - m)
    return mul_scalar(grad, 2.0 / dof if dof else np.inf) * (x - mean(x, node.dims, keepdim=True))


def _var_jvp(node, t, x):
    """derivatives.yaml's ``var_backward(self_t, self_p, dim, correction, keepdim=True).sum(dim, keepdim)``."""
    from .pointwise import mul_scalar
    dof = node.dof
    if node.full:
        m = mean(x)
        if dof <= 0:
            part = t * _make(np.where(x._data == m._data, np.nan, np.inf).astype(dtypes.get_default_dtype().np))
        else:
            part = mul_scalar(t, 2.0 / dof) * (x - m)
    else:
        part = mul_scalar(t, 2.0 / dof if dof else np.inf) * (x - mean(x, node.dims, keepdim=True))
    return node._summed(part)


class VarBackward0(_Reduction):
    saves = ("self",)

    def jvp(self, tangents, inputs, result):
        return _as_result(_var_jvp(self, tangents[0], inputs[0]), result)

    def backward(self, grad):
        return _var_backward(self, grad, self.saved("self"))


class StdBackward0(_Reduction):
    saves = ("result", "self")

    def jvp(self, tangents, inputs, result):
        # var's JVP / (2 * result), 0 where the std is 0
        from .indexing import masked_fill
        from .pointwise import mul_scalar
        v = _as_result(_var_jvp(self, tangents[0], inputs[0]), result)
        return masked_fill(v / mul_scalar(result, 2.0), result == 0, 0)

    def backward(self, grad):
        # std_backward: grad / (2 std), taken as 0 where the std is 0, then var's backward.
        from .indexing import masked_fill
        from .pointwise import mul_scalar
        result = self.saved("result")
        return _var_backward(self, masked_fill(grad / mul_scalar(result, 2), result == 0, 0), self.saved("self"))


def _correction(unbiased, correction):
    if correction is not None:
        return correction
    return 1 if unbiased is None or unbiased else 0


def _var_like(input, dim, unbiased, keepdim, correction, cls, np_fn):
    if isinstance(dim, bool):
        unbiased, dim = dim, None
    if input._data.dtype.kind not in "fc":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    c = _correction(unbiased, correction)
    data = input._data
    dims = _dims(dim, data.ndim)
    count = int(np.prod([data.shape[d] for d in dims])) if data.ndim else 1
    out_dtype = data.dtype
    if data.dtype.kind == "f" and data.dtype.itemsize < 8:
        data = data.astype(np.float64)  # PyTorch's Welford accumulates float32 in double, rounded once
    # PyTorch warns on its reduction factor, input numel over output numel: 0 for any empty input.
    if (count if data.size else 0) - c > 0:
        value = np_fn(data, axis=dims, ddof=c, keepdims=keepdim)
    else:
        warnings.warn(f"{np_fn.__name__}(): degrees of freedom is <= 0. Correction should be strictly less than "
                      "the reduction factor (input numel divided by output numel). (Triggered internally at "
                      "/__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)", UserWarning, stacklevel=4)
        with warnings.catch_warnings():  # NumPy's own RuntimeWarning: PyTorch's words instead
            warnings.simplefilter("ignore", RuntimeWarning)
            value = np_fn(data, axis=dims, ddof=c, keepdims=keepdim)
    out = _make(np.asarray(value, dtype=out_dtype, order="C"))
    if grad_on(input):
        node = cls()
        node.dof, node.full = count - c, dim is None or data.ndim == 0
        _reduced(input, dims, keepdim, node, self=input)
        if cls is StdBackward0:
            node.save_output(result=out)
        record(out, node, (input,))
    return out



@numpy_names
def var(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _var_like(input, dim, unbiased, keepdim, correction, VarBackward0, np.var)


@numpy_names
def std(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return _var_like(input, dim, unbiased, keepdim, correction, StdBackward0, np.std)


class LinalgVectorNormBackward0(_Reduction):
    saves = ("result", "self")

    def jvp(self, tangents, inputs, result):
        # FunctionsManual's norm_jvp
        from .indexing import masked_fill
        x, t, p, norm_ = inputs[0], tangents[0], self.p, result
        if p == 0:
            return _make(np.zeros(result._data.shape, result._data.dtype))
        if p == 1:
            return self._summed(sgn(x) * t)
        if p == 2:
            return masked_fill(self._summed(x * t) / norm_, norm_ == 0, 0)
        if np.isinf(p):
            full = self._restored(norm_)
            is_max = (abs_(x) == full) | _make(np.isnan(x._data) & np.isnan(full._data))
            count = _make(np.sum(is_max._data, axis=self.dims, keepdims=True).astype(x._data.dtype))
            return self._summed(sgn(x) * t * is_max / count)
        if p < 1:
            pw = masked_fill(abs_(x) ** (p - 1), x == 0, 0)
            return self._summed(pw * (sgn(x) * t)) * norm_ ** (1 - p)
        if p < 2:
            summed = self._summed(abs_(x) ** (p - 1) * (sgn(x) * t))
        else:
            summed = self._summed(abs_(x) ** (p - 2) * (x * t))
        return masked_fill(summed / norm_ ** (p - 1), norm_ == 0, 0)

    def backward(self, grad):
        # FunctionsManual's norm_backward; the gradient at a zero norm is taken as 0 (a subgradient).
        from .indexing import masked_fill
        x, norm_ = self.saved("self"), self.saved("result")
        nb = batch_ndim[0]
        if not self.keepdim and x._data.ndim and (nb or not self.over_all):
            for d in self.dims:
                grad, norm_ = unsqueeze(grad, d + nb), unsqueeze(norm_, d)
        p = self.p
        if p == 1:
            return sgn(x) * grad
        if p == 2:
            return grad * masked_fill(x / norm_, norm_ == 0, 0)
        if p == float("inf"):
            a = abs_(x)
            mask = (a == norm_) | _make(np.isnan(a._data))
            return sgn(x) * ((grad / _make(np.sum(mask._data, axis=self.dims, keepdims=True))) * mask)
        if p < 1:
            scaled = sgn(x) * masked_fill(abs_(x) ** (p - 1), x == 0, 0)
            return scaled * grad * norm_ ** (1 - p)
        scaled = sgn(x) * abs_(x) ** (p - 1) if p < 2 else x * abs_(x) ** (p - 2)
        return scaled * masked_fill(grad / norm_ ** (p - 1), norm_ == 0, 0)


def _pow(x, e):
    """``x ** e`` rounded once, as the C library's powf that PyTorch's norm calls (NumPy's float32
    loops may use a less exact vector pow)."""
    x = np.asarray(x)
    if x.dtype == np.float32:
        with np.errstate(divide="ignore"):
            return (x.astype(np.float64) ** float(np.float32(e))).astype(np.float32)
    with np.errstate(divide="ignore"):
        return x ** e


def _sum_in_order(a, dims, keepdim):
    """PyTorch's binary_kernel_reduce for the norms: one accumulator in the input's dtype, each
    element added in turn (NumPy's pairwise sum rounds differently)."""
    keep = [d for d in range(a.ndim) if d not in dims]
    moved = np.transpose(a, keep + list(dims))
    rows = moved.reshape(moved.shape[:len(keep)] + (-1,))
    if rows.shape[-1]:
        value = np.add.accumulate(rows, axis=-1)[..., -1]
    else:
        value = np.zeros(rows.shape[:-1], a.dtype)
    return value.reshape([1 if d in dims else n for d, n in enumerate(a.shape)]) if keepdim else value


def abs_(x):
    from .pointwise import abs
    return abs(x)


def norm(input, p="fro", dim=None, keepdim=False, dtype=None):
    if p == "fro" or p is None:
        p = 2
    p = float(p)
    data = float_data(input)
    dims = _dims(dim, data.ndim)
    a = np.abs(data)
    if p == float("inf"):
        value = np.max(a, axis=dims, keepdims=keepdim)
    elif p == 2:
        value = np.sqrt(np.sum(a * a, axis=dims, keepdims=keepdim))
    elif p == -float("inf"):
        value = np.min(a, axis=dims, keepdims=keepdim)
    elif p == 0:
        value = _sum_in_order((a != 0).astype(a.dtype), dims, keepdim)
    elif p == 1:
        value = _sum_in_order(a, dims, keepdim)
    else:
        value = _pow(_sum_in_order(_pow(a, p), dims, keepdim), 1 / p)
    out = _make(np.asarray(value, dtype=data.dtype, order="C"))
    if grad_on(input):
        node = LinalgVectorNormBackward0()
        node.p, node.over_all = p, dim is None
        _reduced(input, dims, keepdim, node, self=input)
        node.save_output(result=out)
        record(out, node, (input,))
    return out


# ---------------------------------------------------------------------------- cumulative and boolean
class CumsumBackward0(Node):
    keeps = ("dim",)

    def jvp(self, tangents, inputs, result):
        return _as_result(cumsum(tangents[0], self.axis), result)  # auto_linear

    def backward(self, grad):
        if self.trivial:  # PyTorch's cumsum_backward: nothing to accumulate along dim
            return grad
        from .joining import flip
        return flip(cumsum(flip(grad, self.axis), self.axis), self.axis)


@numpy_names
def cumsum(input, dim, dtype=None):
    """The cumulative sum of ``input`` along ``dim`` (integers and bools as int64)."""
    from .cumprod import scan_input
    d, data = scan_input(input, dim, dtype)
    out = _make(np.asarray(np.cumsum(data, axis=d).reshape(data.shape), order="C"))  # NumPy makes 0-dim 1-dim
    if grad_on(input):
        node = CumsumBackward0()
        node.dim, node.axis = dim, d - input._data.ndim
        node.trivial = input._data.size <= 1 or input._data.shape[d] == 1
        record(out, node, (input,))
    return out


@numpy_names
def all(input, dim=None, keepdim=False):
    return _make(np.all(input._data, axis=dim, keepdims=keepdim))


@numpy_names
def any(input, dim=None, keepdim=False):
    return _make(np.any(input._data, axis=dim, keepdims=keepdim))


@numpy_names
def count_nonzero(input, dim=None):
    return _make(np.asarray(np.count_nonzero(input._data, axis=dim), dtype=np.int64))
