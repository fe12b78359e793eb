"""The fused backward ops of tanh, sigmoid and relu: ``tanh_backward``, ``sigmoid_backward`` and
``threshold_backward`` are one op each, as in PyTorch, with their own (double) backward nodes.
Their formulas also take NumPy data (``numpy_backward``)."""
from .. import _fp
from ..node import Node
from .base import Tensor, _make, grad_on, np, record_like
from .pointwise import add_scalar, mul_scalar

_F32 = np.dtype(np.float32)
_F64, _ndarray = np.dtype(np.float64), np.ndarray
_ONE64 = np.asarray(1.0)  # (never written: an operand only)


class TanhBackwardBackward0(Node):
    element_wise = True
    args = ("grad_output", "output")
    saves = ("grad_output", "output")

    def backward(self, grad):
        g_out, y = self.saved("grad_output"), self.saved("output")
        gg = tanh_backward(grad, y) if self._next_functions[0][0] is not None else None
        # grad * (-2 * output * grad_output), as derivatives.yaml spells it
        gy = grad * (mul_scalar(y, -2) * g_out) if self._next_functions[1][0] is not None else None
        return gg, gy


class SigmoidBackwardBackward0(Node):
    element_wise = True
    args = ("grad_output", "output")
    saves = ("grad_output", "output")

    def backward(self, grad):
        g_out, y = self.saved("grad_output"), self.saved("output")
        gg = sigmoid_backward(grad, y) if self._next_functions[0][0] is not None else None
        # grad * grad_output * (-2 * output + 1), as derivatives.yaml spells it
        gy = grad * g_out * add_scalar(mul_scalar(y, -2), 1) if self._next_functions[1][0] is not None else None
        return gg, gy


def _fused_backward(grad, output, np_fn, node_cls):
    if grad.__class__ is _ndarray or grad.__class__ is not Tensor and not isinstance(grad, Tensor):
        return np_fn(grad, output)  # a formula running on NumPy data (numpy_backward)
    out = _make(np_fn(grad._data, output._data))
    if grad_on(grad, output):
        node = node_cls()
        node.save(grad_output=grad, output=output)
        record_like(out, node, grad, output)
    return out


def _tanh_grad(g, y):
    # ATen's kernel: grad * (1 - y * y), the latter one fused multiply-add (float32 emulated
    # exactly; float64's Dekker emulation would cost ~20 NumPy calls per node, so not yet)
    if g.dtype is _F32 and y.dtype is _F32:
        return g * _fp.fma32(-y, y, 1.0)
    return g * (1.0 - y * y)  # a float 1: no int conversion, the same bits


def _sigmoid_grad(g, y):
    return g * (1 - y) * y  # ATen's kernel's order: (grad * (1 - y)) * y


def tanh_backward(grad, output):
    """``grad * (1 - output²)`` as one op, as in PyTorch; it has its own (double) backward."""
    if grad.__class__ is _ndarray or grad.__class__ is not Tensor and not isinstance(grad, Tensor):
        # NumPy data (numpy_backward): _tanh_grad's body, inline
        if grad.dtype is _F32:
            return grad * _fp.fma32(-output, output, 1.0)
        if output.__class__ is _ndarray and output.dtype is _F64:
            # NumPy subtracts from a 0-dim array at 2/3 of a Python float's cost, with the same bits
            return grad * (_ONE64 - output * output)
        return grad * (1.0 - output * output)
    return _fused_backward(grad, output, _tanh_grad, TanhBackwardBackward0)


def sigmoid_backward(grad, output):
    """``grad * output * (1 - output)`` as one op, as in PyTorch; it has its own backward."""
    if grad.__class__ is _ndarray or grad.__class__ is not Tensor and not isinstance(grad, Tensor):
        return _sigmoid_grad(grad, output)  # NumPy data (numpy_backward)
    return _fused_backward(grad, output, _sigmoid_grad, SigmoidBackwardBackward0)


class ThresholdBackwardBackward0(Node):
    element_wise = True
    args = ("grad_output", "self")
    saves = ("self",)

    def backward(self, grad):
        g = threshold_backward(grad, self.saved("self")) if self._next_functions[0][0] is not None else None
        return g, (_make(np.zeros_like(grad._data)) if self._next_functions[1][0] is not None else None)


def threshold_backward(grad, result):
    """0 where ``result <= 0``, else ``grad`` (so relu's gradient at 0 is 0, and a NaN input passes
    the gradient through, as in PyTorch).

    A primitive of its own, as in PyTorch, so relu has a (zero) second derivative.
    """
    if grad.__class__ is _ndarray or grad.__class__ is not Tensor and not isinstance(grad, Tensor):
        return np.where(result <= 0, 0, grad).astype(grad.dtype, copy=False)  # NumPy data (numpy_backward)
    out = _make(np.where(result._data <= 0, 0, grad._data).astype(grad._data.dtype, copy=False))
    if grad_on(grad, result):
        node = ThresholdBackwardBackward0()
        node.save(self=result)
        record_like(out, node, grad, result)
    return out
