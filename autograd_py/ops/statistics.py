"""var, std and norm."""
import warnings

from .. import dtypes
from ..signatures import numpy_names
from .base import _make, batch_ndim, float_data, grad_on, np, record
from .pointwise import sgn
from .shape import unsqueeze
from .reduce_dims import _as_result, _dims, _reduced, _Reduction


def _var_backward(node, grad, x):
    """FunctionsManual's var_backward: ``(2 / dof) * grad * (x - x.mean(dim, keepdim=True))``.

    Over all elements with ``dof <= 0`` it is inf, or NaN where ``x`` equals its mean (PyTorch's
    way of saying 0 / 0); over some dims ``2 / 0`` is inf, which the centred zeros make NaN.
    """
    from .reduction import mean  # reduction imports this module
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
    from .reduction import mean  # reduction imports this module
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
        from .advanced_indexing import masked_fill
        from .pointwise import mul_scalar
        v = _as_result(_var_jvp(self, tangents[0], inputs[0]), result)
        return masked_fill(v / mul_scalar(result, 2.0), result == 0, 0)

    def backward(self, grad):
        # std_backward: grad / (2 std), taken as 0 where the std is 0, then var's backward.
        from .advanced_indexing import masked_fill
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
        from .advanced_indexing import masked_fill
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
        from .advanced_indexing import masked_fill
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
    rows = moved.reshape(moved.shape[:len(keep)] + (int(np.prod(moved.shape[len(keep):])),))  # -1 fails when empty
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
