"""Reductions: sum, mean, prod, cumsum, all/any; max/min, gather and var/std/norm live in
``extremes``, ``gather`` and ``statistics`` and are re-exported here, where the method table reads them."""
import warnings

from .. import dtypes, forward_mode, grad_mode
from ..node import Node
from ..signatures import numpy_names
from .base import _make, batch_ndim, grad_on, node_recorder, np, record
from .comparison import where
from .shape import unsqueeze
from .reduce_dims import _as_result, _dims, _input_dims, _reduced, _Reduction, _user_dims


_F64 = np.dtype(np.float64)
_fw_levels = forward_mode.levels
_grad_enabled = grad_mode._state


# ---------------------------------------------------------------------------- sum / mean / prod
def _accurate(fn, data, dims, keepdim):
    """Reduces float32/16 in float64 and rounds once, which gives PyTorch's correctly rounded sums.
    The result is contiguous, as PyTorch's reductions are (NumPy follows the input's layout).
    float32 over trailing dims is added in PyTorch's own order instead (float_sum)."""
    if data.dtype == np.float32 and (fn is np.sum or fn is np.mean):
        from .float_sum import leading_sum, trailing_sum
        out = trailing_sum(data, dims, keepdim, mean=fn is np.mean)
        if out is None:
            out = leading_sum(data, dims, keepdim, mean=fn is np.mean)
        if out is not None:
            return out
    if data.dtype.kind == "f" and data.dtype.itemsize < 8:
        return np.asarray(fn(data, axis=dims, keepdims=keepdim, dtype=np.float64)).astype(data.dtype, order="C")
    if fn is np.sum:
        # what np.sum calls for an ndarray, without its Python wrapper (~1.5 us)
        return np.asarray(np.add.reduce(data, axis=dims, keepdims=keepdim), order="C")
    return np.asarray(fn(data, axis=dims, keepdims=keepdim), order="C")
class SumBackward0(_Reduction):
    keeps = ("self_sym_sizes",)
    over_all = True

    def jvp(self, tangents, inputs, result):
        return sum(tangents[0], dtype=_dtype_of(tangents[0], result))  # auto_linear: the op itself

    def backward(self, grad):
        return self._back(grad)


def _dtype_of(t, result):
    """The ``dtype=`` a reduction's tangent is taken with: the result's, when the op cast."""
    return None if t._data.dtype == result._data.dtype else result.dtype


class SumBackward1(_Reduction):
    keeps = ("dim", "keepdim", "self_sym_sizes")

    def jvp(self, tangents, inputs, result):
        return sum(tangents[0], self.dim, self.keepdim, dtype=_dtype_of(tangents[0], result))

    def backward(self, grad):
        return self._back(grad)


def _sum_all(input, data, keepdim):
    """``sum(input)`` of a float64 tensor while no forward-mode levels are active: its steps below
    without their calls (_input_dims, _accurate, record's _edges loop). Never None (a test's
    stand-in for it returns None to run the general path)."""
    dims = tuple(range(data.ndim))
    out = _make(np.asarray(np.add.reduce(data, axis=dims, keepdims=keepdim), order="C"))
    if input._requires_grad and _grad_enabled[0]:
        node = SumBackward0()
        node.shape, node.dims, node.keepdim = data.shape, dims, keepdim
        fn = input._grad_fn
        if fn is None or input._kept_fn is not None or input._fn_shape is not None:
            return record(out, node, (input,))
        # _edges' common case: the input's shape is checked unless the sum kept it
        node._next_functions = ((fn, input._output_nr),)
        node._input_meta = None if data.shape == out._data.shape else [(data.shape, data.dtype)]
        out._grad_fn = node
        out._requires_grad = True
        if node_recorder[0] is not None:
            node_recorder[0](node)
    return out


@numpy_names
def sum(input, dim=None, keepdim=False, dtype=None):
    data = input._data
    if dim is None and dtype is None and data.dtype is _F64 and not _fw_levels:
        out = _sum_all(input, data, keepdim)
        if out is not None:
            return out
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
    # on NumPy data too: the expanded gradient is divided into a fresh tensor (sum's backward, whose
    # result is the expanded view itself, stays on Tensors, where that view is made)
    numpy_formula = True
    keeps = ("self_sym_numel", "self_sym_sizes")
    over_all = True

    def jvp(self, tangents, inputs, result):
        t = tangents[0]  # auto_linear: the op itself, with its dims when given
        dim = None if self.over_all else self.dim
        return mean(t, dim, self.keepdim, dtype=_dtype_of(t, result))

    def backward(self, grad):
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
    count = 1
    for d in dims:
        count *= data.shape[d]
    if data.size and data.dtype is _F64:
        # np.mean's own steps (a sum, then a true divide by the count), without its Python (~3 us)
        out = _make(np.asarray(np.add.reduce(data, axis=dims, keepdims=keepdim) / count, order="C"))
    elif data.size:
        out = _make(_accurate(np.mean, data, dims, keepdim))
    else:
        with warnings.catch_warnings():  # NaN for an empty mean, without NumPy's RuntimeWarning
            warnings.simplefilter("ignore", RuntimeWarning)
            out = _make(_accurate(np.mean, data, dims, keepdim))
    if grad_on(input):
        node = MeanBackward0() if dim is None else MeanBackward1()
        if dim is not None:
            node.dim = _user_dims(dim)
        node.count = count
        record(out, _reduced(input, dims, keepdim, node), (input,))
    return out


class ProdBackward0(_Reduction):
    saves = ("result", "self")

    def jvp(self, tangents, inputs, result):
        # (prod_backward(ones_like(result), self, result) * self_t).sum(dim, keepdim)
        t, x = tangents[0], inputs[0]
        full = not isinstance(self, ProdBackward1)
        if not len(self.shape):  # prod_backward hands the ones on: the input is not read
            return sum(t) if full else sum(t, self.dim, self.keepdim)
        zeros = np.count_nonzero(x._data == 0)
        if not zeros:  # prod_backward's grad * (result / input), the grad ones_like(result)
            ones = _make(np.ones(result._data.shape, result._data.dtype))
            others = (ones if full else self._restored(ones)) * ((result if full else self._restored(result)) / x)
        elif full and zeros > 1 and not grad_mode.is_grad_enabled():
            others = _make(np.zeros(x._data.shape, x._data.dtype))
        else:
            from .cumprod import prod_safe_zeros_backward
            from .shape import reshape
            ones = _make(np.ones((1,) * (1 if full else x._data.ndim), x._data.dtype))
            if full:  # as prod_backward: the flattened input's product, viewed back
                others = reshape(prod_safe_zeros_backward(ones, reshape(x, (-1,)), 0), x._data.shape)
            else:
                others = prod_safe_zeros_backward(ones, x, self.dims[0])
        return sum(others * t) if full else self._summed(others * t)

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
    from .cumprod import scan, scan_input
    d, data = scan_input(input, dim, dtype)
    out = _make(np.asarray(scan(np.cumsum, data, d).reshape(data.shape), order="C"))  # NumPy makes 0-dim 1-dim
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


# Re-exported for ``tensor_methods`` and the torch namespace (imported last: statistics uses mean).
from .extremes import amax, amin, argmax, argmin, max, min  # noqa: E402
from .gather import gather  # noqa: E402
from .statistics import norm, std, var  # noqa: E402
from .pointwise import div_scalar  # noqa: E402

__all__ = ["sum", "mean", "prod", "cumsum", "all", "any", "count_nonzero", "amax", "amin", "argmax", "argmin", "max",
           "min", "gather", "norm", "std", "var"]
