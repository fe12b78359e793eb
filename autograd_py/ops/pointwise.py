"""Elementwise primitives. Each backward class gives one formula per input, as derivatives.yaml does."""
from .. import grad_mode
from ..dtypes import get_default_dtype
from ..node import Node
from .base import Tensor, _make, float_data, grad_on, np, operands, record
from .comparison import where


# ---------------------------------------------------------------------------- binary arithmetic
class AddBackward0(Node):
    keeps = ("alpha",)

    def backward(self, grad):
        return grad, (grad if self.alpha == 1 else grad * self.alpha)


class SubBackward0(Node):
    keeps = ("alpha",)

    def backward(self, grad):
        return grad, (-grad if self.alpha == 1 else grad * -self.alpha)


class RsubBackward1(Node):
    keeps = ("alpha",)

    def backward(self, grad):
        return -grad if self.alpha == 1 else grad * -self.alpha


class MulBackward0(Node):
    saves = ("other", "self")

    def backward(self, grad):
        a_needed, b_needed = self._next_functions[0][0], self._next_functions[1][0]
        ga = grad * self.saved("other") if a_needed is not None else None
        gb = grad * self.saved("self") if b_needed is not None else None
        return ga, gb


class DivBackward0(Node):
    saves = ("other", "self")

    def backward(self, grad):
        other = self.saved("other")
        ga = grad / other if self._next_functions[0][0] is not None else None
        gb = None
        if self._next_functions[1][0] is not None:
            gb = -grad * self.saved("self") / (other * other)
        return ga, gb


def add(input, other, alpha=1):
    a, b = operands(input, other)
    out = _make(np.add(a, b) if alpha == 1 else a + alpha * b)
    if grad_on(input, other):
        node = AddBackward0()
        node.alpha = alpha
        record(out, node, (input, other))
    return out


def sub(input, other, alpha=1):
    a, b = operands(input, other)
    out = _make(np.subtract(a, b) if alpha == 1 else a - alpha * b)
    if grad_on(input, other):
        node = SubBackward0()
        node.alpha = alpha
        record(out, node, (input, other))
    return out


def rsub(input, other, alpha=1):
    """``other - alpha * input``, what ``2 - x`` calls."""
    a, b = operands(input, other)
    out = _make(b - a if alpha == 1 else b - alpha * a)
    if grad_on(input):
        node = RsubBackward1()
        node.alpha = alpha
        record(out, node, (input,))
    return out


def mul(input, other):
    a, b = operands(input, other)
    out = _make(np.multiply(a, b))
    if grad_on(input, other):
        node = MulBackward0()
        if input._requires_grad:
            node.save(other=other)
        if isinstance(other, Tensor) and other._requires_grad:
            node.save(self=input)
        record(out, node, (input, other))
    return out


def div(input, other, rounding_mode=None):
    a, b = operands(input, other)
    if rounding_mode is not None:
        fn = np.floor if rounding_mode == "floor" else np.trunc
        return _make(fn(np.true_divide(a, b)).astype(np.result_type(a, b), copy=False))
    if a.dtype.kind != "f":
        # Integers divide into the default float dtype (both operands, or NumPy would give float64).
        dt = get_default_dtype().np
        a = a.astype(dt)
        b = b.astype(dt) if isinstance(b, np.ndarray) else b
    out = _make(np.true_divide(a, b))
    if grad_on(input, other):
        node = DivBackward0()
        node.save(other=other)
        if isinstance(other, Tensor) and other._requires_grad:
            node.save(self=input)
        record(out, node, (input, other))
    return out


# ---------------------------------------------------------------------------- powers
class PowBackward0(Node):
    saves = ("self",)
    keeps = ("exponent",)

    def backward(self, grad):
        exponent = self.exponent
        if exponent == 0:
            return grad * 0
        return grad * exponent * self.saved("self") ** (exponent - 1)


class PowBackward1(Node):
    saves = ("exponent", "result", "self")

    def backward(self, grad):
        exponent, base = self.saved("exponent"), self.saved("self")  # PyTorch's unpacking order
        ga = gb = None
        if self._next_functions[0][0] is not None:
            ga = grad * exponent * base ** (exponent - 1)
        if self._next_functions[1][0] is not None:
            # d/db a**b = a**b log a, taken as 0 where a == 0 and b >= 0, as PyTorch does.
            zero = (base == 0) & (exponent >= 0)
            gb = where(zero, 0.0, grad * self.saved("result") * log(base))
        return ga, gb


class PowBackward2(Node):
    saves = ("exponent", "result")
    keeps = ("self",)

    def backward(self, grad):
        return grad * self.saved("result") * float(np.log(self.self))


# PyTorch computes these exponents by multiplication, bit for bit, and it is faster than np.power.
_SPECIAL_POWERS = {
    2: lambda a: a * a, 3: lambda a: a * a * a, -1: lambda a: 1 / a, -2: lambda a: 1 / (a * a),
    0.5: np.sqrt, -0.5: lambda a: 1 / np.sqrt(a),
}


def _np_power(a, e):
    special = _SPECIAL_POWERS.get(e) if a.dtype.kind == "f" else None
    return special(a).astype(a.dtype, copy=False) if special is not None else np.power(a, e)


def pow(input, exponent):
    if isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        a, e = operands(input, exponent)
        out = _make(_np_power(a, e))
        if grad_on(input):
            node = PowBackward0()
            node.exponent = exponent
            node.save(self=input)
            record(out, node, (input,))
        return out
    if not isinstance(input, Tensor):
        e, a = operands(exponent, input)
        out = _make(np.power(a, e))
        if grad_on(exponent):
            node = PowBackward2()
            node.self = input
            node.save(exponent=exponent)
            node.save_output(result=out)
            record(out, node, (exponent,))
        return out
    a, e = operands(input, exponent)
    out = _make(np.power(a, e))
    if grad_on(input, exponent):
        node = PowBackward1()
        node.save(self=input, exponent=exponent)
        node.save_output(result=out)
        record(out, node, (input, exponent))
    return out


def square(input):
    return pow(input, 2)


# ---------------------------------------------------------------------------- unary functions
def _unary(input, fn, node_cls, saves=None, floating=True):
    data = input._data
    if floating and data.dtype.kind != "f":
        data = float_data(input)
    out = _make(fn(data))
    if input._requires_grad and grad_mode._state[0]:
        node = node_cls()
        if saves == "self":
            node.save(self=input)
        elif saves == "result":
            node.save_output(result=out)
        record(out, node, (input,))
    return out


class NegBackward0(Node):
    def backward(self, grad):
        return -grad


class AbsBackward0(Node):
    saves = ("self",)

    def backward(self, grad):
        return grad * sign(self.saved("self"))


class ExpBackward0(Node):
    saves = ("result",)

    def backward(self, grad):
        return grad * self.saved("result")


class LogBackward0(Node):
    saves = ("self",)

    def backward(self, grad):
        return grad / self.saved("self")


class Log1PBackward0(Node):
    saves = ("self",)

    def backward(self, grad):
        return grad / (self.saved("self") + 1)


class SqrtBackward0(Node):
    saves = ("result",)

    def backward(self, grad):
        return grad / (2 * self.saved("result"))


class SinBackward0(Node):
    saves = ("self",)

    def backward(self, grad):
        return grad * cos(self.saved("self"))


class CosBackward0(Node):
    saves = ("self",)

    def backward(self, grad):
        return grad * -sin(self.saved("self"))


class TanBackward0(Node):
    saves = ("result",)

    def backward(self, grad):
        result = self.saved("result")
        return grad * (result * result + 1)


class TanhBackward0(Node):
    saves = ("result",)

    def backward(self, grad):
        return tanh_backward(grad, self.saved("result"))


class SigmoidBackward0(Node):
    saves = ("result",)

    def backward(self, grad):
        return sigmoid_backward(grad, self.saved("result"))


class TanhBackwardBackward0(Node):
    saves = ("grad_output", "output")

    def backward(self, grad):
        g_out, y = self.saved("grad_output"), self.saved("output")
        gg = tanh_backward(grad, y) if self._next_functions[0][0] is not None else None
        gy = grad * g_out * y * -2 if self._next_functions[1][0] is not None else None
        return gg, gy


class SigmoidBackwardBackward0(Node):
    saves = ("grad_output", "output")

    def backward(self, grad):
        g_out, y = self.saved("grad_output"), self.saved("output")
        gg = sigmoid_backward(grad, y) if self._next_functions[0][0] is not None else None
        gy = grad * g_out * (1 - 2 * y) if self._next_functions[1][0] is not None else None
        return gg, gy


def _fused_backward(grad, output, np_fn, node_cls):
    out = _make(np_fn(grad._data, output._data))
    if grad_on(grad, output):
        node = node_cls()
        node.save(grad_output=grad, output=output)
        record(out, node, (grad, output))
    return out


def tanh_backward(grad, output):
    """``grad * (1 - output²)`` as one op, as in PyTorch; it has its own (double) backward."""
    return _fused_backward(grad, output, lambda g, y: g * (1 - y * y), TanhBackwardBackward0)


def sigmoid_backward(grad, output):
    """``grad * output * (1 - output)`` as one op, as in PyTorch; it has its own backward."""
    return _fused_backward(grad, output, lambda g, y: g * (y * (1 - y)), SigmoidBackwardBackward0)


class ReluBackward0(Node):
    saves = ("result",)

    def backward(self, grad):
        return threshold_backward(grad, self.saved("result"))


class ThresholdBackwardBackward0(Node):
    saves = ("self",)

    def backward(self, grad):
        g = threshold_backward(grad, self.saved("self")) if self._next_functions[0][0] is not None else None
        return g, (grad * 0 if self._next_functions[1][0] is not None else None)


def threshold_backward(grad, result):
    """``grad`` where ``result > 0``, else 0 (so relu's gradient at 0 is 0, as in PyTorch).

    A primitive of its own, as in PyTorch, so relu has a (zero) second derivative.
    """
    out = _make(np.where(result._data > 0, grad._data, 0).astype(grad._data.dtype, copy=False))
    if grad_on(grad, result):
        node = ThresholdBackwardBackward0()
        node.save(self=result)
        record(out, node, (grad, result))
    return out


class ReciprocalBackward0(Node):
    saves = ("result",)

    def backward(self, grad):
        result = self.saved("result")
        return -grad * result * result


class ZeroGradBackward(Node):
    """Step functions (sign, floor, round, ...) have a zero gradient almost everywhere."""

    def backward(self, grad):
        return grad * 0


def _zero_grad_node(name):
    return type(name, (ZeroGradBackward,), {"__doc__": f"Zero gradient of {name[:-9].lower()}."})


SignBackward0 = _zero_grad_node("SignBackward0")
FloorBackward0 = _zero_grad_node("FloorBackward0")
CeilBackward0 = _zero_grad_node("CeilBackward0")
RoundBackward0 = _zero_grad_node("RoundBackward0")
TruncBackward0 = _zero_grad_node("TruncBackward0")


def neg(input):
    return _unary(input, np.negative, NegBackward0, floating=False)


def abs(input):
    return _unary(input, np.abs, AbsBackward0, "self", floating=False)


def exp(input):
    return _unary(input, np.exp, ExpBackward0, "result")


def log(input):
    return _unary(input, np.log, LogBackward0, "self")


def log1p(input):
    return _unary(input, np.log1p, Log1PBackward0, "self")


def sqrt(input):
    return _unary(input, np.sqrt, SqrtBackward0, "result")


def sin(input):
    return _unary(input, np.sin, SinBackward0, "self")


def cos(input):
    return _unary(input, np.cos, CosBackward0, "self")


def tan(input):
    return _unary(input, np.tan, TanBackward0, "result")


def tanh(input):
    return _unary(input, np.tanh, TanhBackward0, "result")


def _np_sigmoid(x):
    # Split by sign so that exp never overflows.
    out = np.empty_like(x)
    pos = x >= 0
    out[pos] = 1 / (1 + np.exp(-x[pos]))
    e = np.exp(x[~pos])
    out[~pos] = e / (1 + e)
    return out


def sigmoid(input):
    return _unary(input, _np_sigmoid, SigmoidBackward0, "result")


def relu(input):
    return _unary(input, lambda d: np.maximum(d, 0).astype(d.dtype, copy=False), ReluBackward0,
                  "result", floating=False)


def reciprocal(input):
    return _unary(input, np.reciprocal, ReciprocalBackward0, "result")


def sign(input):
    return _unary(input, np.sign, SignBackward0, floating=False)


def floor(input):
    return _unary(input, np.floor, FloorBackward0, floating=False)


def ceil(input):
    return _unary(input, np.ceil, CeilBackward0, floating=False)


def round(input, decimals=0):
    return _unary(input, lambda d: np.round(d, decimals), RoundBackward0, floating=False)


def trunc(input):
    return _unary(input, np.trunc, TruncBackward0, floating=False)


# ---------------------------------------------------------------------------- copies and casts
class CloneBackward0(Node):
    def backward(self, grad):
        return grad


class ToCopyBackward0(Node):
    def backward(self, grad):
        return grad  # the engine casts it back to the input's dtype


def clone(input, memory_format=None):
    out = _make(input._data.copy())
    if grad_on(input):
        record(out, CloneBackward0(), (input,))
    return out


def to_dtype(input, np_dtype):
    if input._data.dtype == np_dtype:
        return input
    out = _make(input._data.astype(np_dtype))
    if grad_on(input) and out._data.dtype.kind == "f":
        record(out, ToCopyBackward0(), (input,))
    return out
