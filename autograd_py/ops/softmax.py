"""logsumexp, softmax and log_softmax: the normalising functions, computed stably as PyTorch does."""
from .. import dtypes
from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim
from .base import _make, float_data, grad_on, np, record
from .pointwise import exp
from .reduction import _dims, _expand_back, _reduced, _Reduction, sum

class LogsumexpBackward0(_Reduction):
    saves = ("result", "self")
    keeps = ("dim", "keepdim")

    def backward(self, grad):
        x, result = self.saved("self"), self.saved("result")
        r = _expand_back(result, self.shape, self.dims, self.keepdim)
        return self._back(grad) * exp(x - r)


def _np_logsumexp(data, dims, keepdim):
    m = np.max(data, axis=dims, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    out = np.log(np.sum(np.exp(data - m), axis=dims, keepdims=True)) + m
    return out if keepdim else np.squeeze(out, axis=dims)


@numpy_names
def logsumexp(input, dim, keepdim=False):
    data = float_data(input)
    dims = _dims(dim, data.ndim)
    out = _make(np.asarray(_np_logsumexp(data, dims, keepdim), dtype=data.dtype))
    if grad_on(input):
        node = LogsumexpBackward0()
        node.dim = (dim,) if isinstance(dim, int) else tuple(dim)
        _reduced(input, dims, keepdim, node, self=input)
        node.save_output(result=out)
        record(out, node, (input,))
    return out


class SoftmaxBackward0(Node):
    saves = ("result",)
    keeps = ("dim",)

    def backward(self, grad):
        y = self.saved("result")
        return y * (grad - sum(grad * y, self.axis, keepdim=True))  # self.axis < 0: batch-safe


class LogSoftmaxBackward0(Node):
    saves = ("result",)
    keeps = ("dim",)

    def backward(self, grad):
        y = self.saved("result")
        return grad - exp(y) * sum(grad, self.axis, keepdim=True)


def _softmax_dim(dim, ndim):
    if dim is None:
        # PyTorch's legacy implicit choice, which it warns about.
        import warnings
        warnings.warn("Implicit dimension choice for softmax has been deprecated. Change the call to "
                      "include dim=X as an argument.", UserWarning, stacklevel=3)
        dim = 0 if ndim in (0, 1, 3) else 1
    return _wrap_dim(dim, ndim)


@numpy_names
def softmax(input, dim=None, dtype=None):
    data = float_data(input) if dtype is None else input._data.astype(dtypes.to_numpy_dtype(dtype))
    d = _softmax_dim(dim, data.ndim)
    e = np.exp(data - np.max(data, axis=d, keepdims=True))
    out = _make((e / np.sum(e, axis=d, keepdims=True)).astype(data.dtype, copy=False))
    if grad_on(input):
        node = SoftmaxBackward0()
        node.dim, node.axis = (d if dim is None else dim), d - data.ndim
        node.save_output(result=out)
        record(out, node, (input,))
    return out


@numpy_names
def log_softmax(input, dim=None, dtype=None):
    data = float_data(input) if dtype is None else input._data.astype(dtypes.to_numpy_dtype(dtype))
    d = _softmax_dim(dim, data.ndim)
    shifted = data - np.max(data, axis=d, keepdims=True)  # PyTorch's order of rounding
    out = _make((shifted - np.log(np.sum(np.exp(shifted), axis=d, keepdims=True))).astype(data.dtype, copy=False))
    if grad_on(input):
        node = LogSoftmaxBackward0()
        node.dim, node.axis = (d if dim is None else dim), d - data.ndim
        node.save_output(result=out)
        record(out, node, (input,))
    return out
