"""logsumexp, softmax and log_softmax: the normalising functions, computed stably as PyTorch does."""
from .. import _fp, dtypes
from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim
from .base import Tensor, _make, batch_ndim, float_data, grad_on, np, record
from .pointwise import exp
from .reduce_dims import _dims, _reduced, _Reduction
from .float_sum import reduce_all
from .reduction import sum
from .shape import unsqueeze

def logsumexp_jvp(x, t, dims, keepdim):
    """FunctionsManual's logsumexp_jvp: the tangent averaged with the softmax weights (exp-normalised)."""
    from .extremes import amax
    e = exp(x - amax(x, dims, True)) if x._data.size else exp(x)
    return sum(e * t, dims, keepdim) / sum(e, dims, keepdim)


class LogsumexpBackward0(_Reduction):
    saves = ("result", "self")
    keeps = ("dim", "keepdim")

    def jvp(self, tangents, inputs, result):
        return logsumexp_jvp(inputs[0], tangents[0], self.dims, self.keepdim)

    def backward(self, grad):
        # logsumexp_backward: grad * exp(self - result), the reduced dims restored (broadcast)
        x, result = self.saved("self"), self.saved("result")
        if not self.keepdim and x._data.ndim:
            nb = batch_ndim[0]
            for d in self.dims:
                grad, result = unsqueeze(grad, d + nb), unsqueeze(result, d)
        return grad * exp(x - result)


def _np_logsumexp(data, dims, keepdim):
    # ATen's composite: sum((x - max).exp()) through the sum kernel (float32 in PyTorch's order),
    # then log and + max, each its own op
    from .reduction import _accurate
    m = np.max(data, axis=dims, keepdims=True, initial=-np.inf)
    m = np.where(np.isfinite(m), m, 0)
    e = _fp.exp(data - m)
    total = _accurate(np.sum, np.ascontiguousarray(e), dims, True) if data.size and data.ndim else \
        np.sum(e, axis=dims, keepdims=True)
    with np.errstate(divide="ignore"):  # an empty slice sums to 0: log gives -inf, as in PyTorch
        out = (_log32(total) if total.dtype == _F32 else np.log(total)) + m
    return out if keepdim else np.squeeze(out, axis=dims)


@numpy_names
def logsumexp(input, dim, keepdim=False):
    data = float_data(input)
    dims = _dims(dim, data.ndim)
    out = _make(np.asarray(_np_logsumexp(data, dims, keepdim), dtype=data.dtype, order="C"))
    if grad_on(input):
        node = LogsumexpBackward0()
        node.dim = (dim,) if isinstance(dim, int) else tuple(dim)
        _reduced(input, dims, keepdim, node, self=input)
        node.save_output(result=out)
        record(out, node, (input,))
    return out


# ---------------------------------------------------------------------------- softmax, log_softmax
# Their backward is a primitive of its own (_softmax_backward_data), as in PyTorch, so a second
# derivative is one SoftmaxBackwardDataBackward0 node with derivatives.yaml's formulas.
class SoftmaxBackward0(Node):
    numpy_formula = True
    saves = ("result",)
    keeps = ("dim",)

    def jvp(self, tangents, inputs, result):
        t = tangents[0]
        return result * (t - logsumexp_jvp(inputs[0], t, self.axis, True))

    def backward(self, grad):
        return softmax_backward_data(grad, self.saved("result"), self.axis)  # self.axis < 0: batch-safe


class LogSoftmaxBackward0(Node):
    numpy_formula = True
    saves = ("result",)
    keeps = ("dim",)

    def jvp(self, tangents, inputs, result):
        t = tangents[0]
        return t - logsumexp_jvp(inputs[0], t, self.axis, True)

    def backward(self, grad):
        return log_softmax_backward_data(grad, self.saved("result"), self.axis)


class SoftmaxBackwardDataBackward0(Node):
    saves = ("grad_output", "output")
    keeps = ("dim",)

    def jvp(self, tangents, inputs, result):
        # product rule on ``y * (g - (g * y).sum(dim))``, each missing tangent a zero
        (g_t, y_t), (g, y), axis = tangents, inputs, self.axis
        out = None
        if g_t is not None:
            out = softmax_backward_data(g_t, y, axis)
        if y_t is not None:
            part = y_t * (g - sum(g * y, axis, keepdim=True)) - y * sum(g * y_t, axis, keepdim=True)
            out = part if out is None else out + part
        return out

    def backward(self, grad):
        g_out, y = self.saved("grad_output"), self.saved("output")
        axis = self.axis
        gg = softmax_backward_data(grad, y, axis) if self._next_functions[0][0] is not None else None
        gy = None
        if self._next_functions[1][0] is not None:  # softmax_double_backward
            gy = (g_out * grad - sum(y * g_out, axis, keepdim=True) * grad
                  - g_out * sum(y * grad, axis, keepdim=True))
        return gg, gy


class LogSoftmaxBackwardDataBackward0(Node):
    saves = ("grad_output", "output")
    keeps = ("dim",)

    def jvp(self, tangents, inputs, result):
        # product rule on ``g - exp(y) * g.sum(dim)``, each missing tangent a zero
        (g_t, y_t), (g, y), axis = tangents, inputs, self.axis
        out = None
        if g_t is not None:
            out = log_softmax_backward_data(g_t, y, axis)
        if y_t is not None:
            part = -(exp(y) * y_t * sum(g, axis, keepdim=True))
            out = part if out is None else out + part
        return out

    def backward(self, grad):
        g_out, y = self.saved("grad_output"), self.saved("output")
        axis = self.axis
        gg = gy = None
        if self._next_functions[0][0] is not None:
            gg = grad - sum(grad * exp(y), axis, keepdim=True)
        if self._next_functions[1][0] is not None:
            gy = -sum(g_out, axis, keepdim=True) * exp(y) * grad
        return gg, gy


# what np.sum and np.max call for an ndarray, without their Python wrappers (~1.5 us each)
_sum, _max = np.add.reduce, np.maximum.reduce
_F32 = np.dtype(np.float32)
# ATen's last-dim kernels reduce a row of fewer values than a vector holds (64 bytes with AVX512,
# this machine's and the recordings': 16 floats, 8 doubles; AVX2 holds half) one after another
_VECTOR_BYTES = 64


def _row_sum(a, axis):
    """``a.sum(axis, keepdims=True)`` in the order ATen's softmax kernels add a last-dim row (their
    AVX512 ``vec::reduce_all``: ``float_sum.reduce_all``), else NumPy's. float64 rows of a vector or
    more keep NumPy's sum: they differ from PyTorch's mostly by SLEEF's double exp, not emulated, and
    in lanes they match no better (measured)."""
    if not a.ndim or not (axis == -1 or axis == a.ndim - 1) or not a.shape[-1] or \
            a.dtype != _F32 and a.shape[-1] >= _VECTOR_BYTES // a.dtype.itemsize:
        return _sum(a, axis=axis, keepdims=True)
    return reduce_all(a, _VECTOR_BYTES)[..., None]


_log32 = _fp.via_float64(np.log)


def _exp_along(a, axis):
    """``exp`` as ATen's softmax kernels compute it: along the last dim they are written in
    ``Vectorized`` arithmetic, whose float32 exp is SLEEF's (``_fp.vector_exp32``); the other dims'
    kernels round libm's."""
    if a.dtype == _F32 and a.ndim and (axis == -1 or axis == a.ndim - 1):
        return _fp.vector_exp32(a)
    return _fp.exp(a)


def _backward_data(grad_output, output, axis, np_fn, node_cls):
    if grad_output.__class__ is not Tensor and not isinstance(grad_output, Tensor):
        # a formula running on NumPy data (numpy_backward): a 0-dim value comes as a NumPy scalar
        return np.asarray(np_fn(np.asarray(grad_output), np.asarray(output)), dtype=output.dtype, order="C")
    out = _make(np.asarray(np_fn(grad_output._data, output._data), dtype=output._data.dtype, order="C"))
    if grad_on(grad_output, output):
        node = node_cls()
        node.dim, node.axis = axis + output._data.ndim, axis
        node.save(grad_output=grad_output, output=output)
        record(out, node, (grad_output, output))
    return out


def _dot_along(g, y, axis):
    """``(g * y).sum(axis, keepdims=True)`` as ATen's softmax backward adds it: over the last dim
    as ``_row_sum``; over another dim of float32 data one fused multiply-add after another (its
    kernel walks that dim for a vector of inner positions at a time)."""
    n = g.shape[axis] if g.ndim else 0
    if g.dtype != _F32 or not 1 < n <= _FMA_WALK or axis == -1 or axis == g.ndim - 1:
        return _row_sum(g * y, axis)
    g, y = np.moveaxis(g, axis, 0), np.moveaxis(y, axis, 0)
    acc = g[0] * y[0]
    for i in range(1, n):
        acc = _fp.fma32(g[i], y[i], acc)
    return np.expand_dims(acc, axis)


_FMA_WALK = 1024  # longer dims keep NumPy's sum rather than a Python loop of that length


def softmax_backward_data(grad_output, output, axis):
    """``output * (grad_output - (grad_output * output).sum(axis))``: softmax's gradient, one op."""
    return _backward_data(grad_output, output, axis,
                          lambda g, y: y * (g - _dot_along(g, y, axis)), SoftmaxBackwardDataBackward0)


def log_softmax_backward_data(grad_output, output, axis):
    """``grad_output - exp(output) * grad_output.sum(axis)``: log_softmax's gradient, one op."""
    return _backward_data(grad_output, output, axis,
                          lambda g, y: (_fp.fma32(-_exp_along(y, axis), _row_sum(g, axis), g) if y.dtype == _F32
                                        else g - np.exp(y) * _row_sum(g, axis)),  # float32: ATen's fused form
                          LogSoftmaxBackwardDataBackward0)


def _softmax_dim(dim, ndim):
    if dim is None:
        # PyTorch's legacy implicit choice, which it warns about.
        import warnings
        warnings.warn("Implicit dimension choice for softmax has been deprecated. Change the call to "
                      "include dim=X as an argument.", UserWarning, stacklevel=4)
        dim = 0 if ndim in (0, 1, 3) else 1
    return _wrap_dim(dim, ndim)


def _softmax_input(input, dim, dtype, name):
    """The input data (cast to ``dtype``) and the wrapped dim; PyTorch has no integer kernel."""
    d = _softmax_dim(dim, input._data.ndim)
    if dtype is not None:
        return input._data.astype(dtypes.to_numpy_dtype(dtype)), d
    if not input._data.size:
        return input._data, d  # nothing to compute: PyTorch returns before choosing a kernel
    if input._data.dtype.kind != "f":
        lastdim = "_lastdim" if d == max(input._data.ndim, 1) - 1 else ""
        raise NotImplementedError(f"\"{name}{lastdim}_kernel_impl\" not implemented for "
                                  f"'{input.dtype.legacy_name[:-6]}'")
    return input._data, d


@numpy_names
def softmax(input, dim=None, dtype=None):
    data, d = _softmax_input(input, dim, dtype, "softmax")
    if data.size:
        e = _exp_along(data - _max(data, axis=d, keepdims=True, initial=-np.inf), d)
        if d == data.ndim - 1:  # the last-dim kernel multiplies by the sum's reciprocal
            res = e * (data.dtype.type(1) / _row_sum(e, d))
        else:
            res = e / _sum(e, axis=d, keepdims=True)
        # PyTorch's softmax kernels write a contiguous output, whatever the input's layout
        out = _make(res.astype(data.dtype, order="C", copy=False))
    else:
        out = _make(data.copy())
    if grad_on(input):
        node = SoftmaxBackward0()
        node.dim, node.axis = (d if dim is None else dim), d - data.ndim
        node.save_output(result=out)
        record(out, node, (input,))
    return out


@numpy_names
def log_softmax(input, dim=None, dtype=None):
    data, d = _softmax_input(input, dim, dtype, "log_softmax")
    if data.size:
        shifted = data - _max(data, axis=d, keepdims=True, initial=-np.inf)  # PyTorch's order of rounding
        total = _row_sum(_exp_along(shifted, d), d)
        out = _make((shifted - (_log32(total) if total.dtype == _F32 else np.log(total)))
                    .astype(data.dtype, order="C", copy=False))
    else:
        out = _make(data.copy())
    if grad_on(input):
        node = LogSoftmaxBackward0()
        node.dim, node.axis = (d if dim is None else dim), d - data.ndim
        node.save_output(result=out)
        record(out, node, (input,))
    return out
