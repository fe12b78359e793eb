"""Elementwise primitives. Each backward class gives one formula per input, as derivatives.yaml does."""
from .. import _fp, forward_mode, grad_mode
from ..dtypes import get_default_dtype
from ..node import Node
from .base import Tensor, _make, float_data, grad_on, np, operands, record
from .comparison import where
from . import zerotensor
from .zerotensor import made as _zeros_made


# ---------------------------------------------------------------------------- binary arithmetic
class AddBackward0(Node):
    element_wise = True
    keeps = ("alpha",)

    def backward(self, grad):
        return grad, (grad if self.alpha == 1 else mul_scalar(grad, self.alpha))


class SubBackward0(Node):
    element_wise = True
    keeps = ("alpha",)

    def backward(self, grad):
        return grad, (-grad if self.alpha == 1 else mul_scalar(-grad, self.alpha))


class RsubBackward1(Node):
    element_wise = True
    keeps = ("alpha",)

    def backward(self, grad):
        return -grad if self.alpha == 1 else mul_scalar(-grad, self.alpha)


class RsubBackward0(Node):
    element_wise = True
    keeps = ("alpha",)

    def backward(self, grad):
        return (-grad if self.alpha == 1 else mul_scalar(-grad, self.alpha)), grad


class MulBackward0(Node):
    element_wise = True
    saves = ("other", "self")

    def backward(self, grad):
        # It unpacks other, then self, and computes its formulas in name order, other's first: under
        # create_graph the nodes' sequence numbers, so the engine's order and float32 sums, follow it.
        other = self.saved("other") if self._next_functions[0][0] is not None else None
        gb = grad * self.saved("self") if self._next_functions[1][0] is not None else None
        ga = grad * other if other is not None else None
        return ga, gb


class AddBackward1(Node):
    element_wise = True
    def backward(self, grad):
        return grad


def add_scalar(input, other):
    """``input + other`` for a number, as ATen's formulas add (``add.Scalar``: AddBackward1)."""
    out = _make(np.add(input._data, other))
    if grad_on(input):
        record(out, AddBackward1(), (input,))
    return out


class MulBackward1(Node):
    element_wise = True
    keeps = ("other",)

    def backward(self, grad):
        return mul_scalar(grad, self.other)


class DivBackward0(Node):
    element_wise = True
    saves = ("other", "self")

    def backward(self, grad):
        other = self.saved("other")
        gb = None
        if self._next_functions[1][0] is not None:  # other's formula first (name order), as MulBackward0
            quotient = (self.saved("self") / other) / other  # div_tensor_other_backward: -grad * quotient,
            gb = -grad * quotient  # the right operand evaluated first, as the C++ compiler does
        ga = grad / other if self._next_functions[0][0] is not None else None
        return ga, gb


def _scaled(a, b, alpha):
    """``a + alpha * b`` in the result dtype, with PyTorch's alpha checks (bool adds as "or")."""
    dt = a.dtype if isinstance(b, (int, float)) else np.result_type(a, b)
    if isinstance(alpha, bool) and dt != np.bool_:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if dt.kind in "biu" and not isinstance(alpha, (int, np.integer)):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if dt == np.bool_:
        return np.logical_or(a, np.logical_and(b, bool(alpha)))
    return a + alpha * b


def _is_bool(x):
    return x._data.dtype == np.bool_ if isinstance(x, Tensor) else isinstance(x, bool)


def _sub_check(a, b):
    """PyTorch refuses to subtract bools (before promotion: ``mask - 1`` too)."""
    a_bool, b_bool = _is_bool(a), _is_bool(b)
    if a_bool and b_bool:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if a_bool or b_bool:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def add(input, other, alpha=1):
    a, b = operands(input, other)
    out = _make(np.add(a, b) if alpha == 1 and alpha is not True else _scaled(a, b, alpha))
    if _zeros_made[0]:
        zerotensor.total(out, input, other)
    if grad_on(input, other):
        node = AddBackward0()
        node.alpha = alpha
        record(out, node, (input, other))
    return out


def sub(input, other, alpha=1):
    if input._data.dtype == np.bool_ or _is_bool(other):
        _sub_check(input, other)
    a, b = operands(input, other)
    out = _make(np.subtract(a, b) if alpha == 1 and alpha is not True else _scaled(a, b, -alpha))
    if _zeros_made[0]:
        zerotensor.total(out, input, other)
    if grad_on(input, other):
        node = SubBackward0()
        node.alpha = alpha
        record(out, node, (input, other))
    return out


def rsub(input, other, alpha=1):
    """``other - alpha * input``, what ``2 - x`` calls."""
    if input._data.dtype == np.bool_ or _is_bool(other):
        _sub_check(input, other)
    a, b = operands(input, other)
    out = _make(b - a if alpha == 1 else b - alpha * a)
    if grad_on(input, other):
        tensors = isinstance(other, Tensor)
        node = RsubBackward0() if tensors else RsubBackward1()
        node.alpha = alpha
        record(out, node, (input, other) if tensors else (input,))
    return out


def mul(input, other):
    a, b = operands(input, other)
    out = _make(np.multiply(a, b))
    if _zeros_made[0]:
        zerotensor.product(out, input, other)
    if grad_on(input, other):
        node = MulBackward0()
        record(out, node, (input, other))
        # Each is saved only for the other's gradient, so only when that one has an edge (a view made
        # under no_grad has none): PyTorch's should_compute_output guard on the save.
        if node._next_functions[0][0] is not None:
            node.save(other=other)
        if node._next_functions[1][0] is not None:
            node.save(self=input)
    return out


class DivBackward2(Node):
    """Division with a rounding mode is piecewise constant: zero gradients, as in PyTorch."""
    element_wise = True
    keeps = ("rounding_mode",)

    def backward(self, grad):
        return tuple(None if fn is None else _make(np.zeros_like(grad._data)) for fn, _ in self._next_functions)


class DivBackward1(Node):
    element_wise = True
    keeps = ("other",)

    def backward(self, grad):
        return div_scalar(grad, self.other)


def div_scalar(input, other):
    """``input / other`` for a number ``other``, as ATen's formulas divide (``div.Scalar``: DivBackward1)."""
    out = _make(np.asarray(np.true_divide(input._data, other), dtype=input._data.dtype))
    if _zeros_made[0]:
        zerotensor.quotient(out, input)
    if grad_on(input):
        node = DivBackward1()
        node.other = other
        record(out, node, (input,))
    return out


class SubBackward1(Node):
    element_wise = True
    def backward(self, grad):
        return grad


def sub_scalar(input, other):
    """``input - other`` for a number ``other``, as ATen's formulas subtract (``sub.Scalar``: SubBackward1)."""
    if input._data.dtype == np.bool_:
        _sub_check(input, other)  # pow's backward with a bool exponent: ``exponent - 1`` raises
    out = _make(np.subtract(input._data, other))
    if grad_on(input):
        record(out, SubBackward1(), (input,))
    return out


def mul_scalar(input, other):
    """``input * other`` for a number ``other``, as ATen's own formulas multiply (``mul.Scalar``,
    whose node is MulBackward1, where ``x * 2`` from Python records MulBackward0)."""
    out = _make(np.multiply(input._data, other))
    if _zeros_made[0]:
        zerotensor.product(out, input, other)
    if grad_on(input):
        node = MulBackward1()
        node.other = other
        record(out, node, (input,))
    return out


def div(input, other, rounding_mode=None):
    a, b = operands(input, other)
    if rounding_mode is not None:
        fn = np.floor if rounding_mode == "floor" else np.trunc
        out = _make(fn(np.true_divide(a, b)).astype(np.result_type(a, b), copy=False))
        if out._data.dtype.kind == "f" and grad_on(input, other):
            node = DivBackward2()
            node.rounding_mode = rounding_mode
            record(out, node, (input, other))
        return out
    if a.dtype.kind != "f":
        # Integers divide into the default float dtype (both operands, or NumPy would give float64).
        dt = get_default_dtype().np
        a = a.astype(dt)
        b = b.astype(dt) if isinstance(b, np.ndarray) else b
    out = _make(np.true_divide(a, b))
    if _zeros_made[0]:
        zerotensor.quotient(out, input)
    if grad_on(input, other):
        node = DivBackward0()
        node.save(other=other)
        record(out, node, (input, other))
        if node._next_functions[1][0] is not None:  # self is read by other's gradient alone
            node.save(self=input)
    return out


# ---------------------------------------------------------------------------- powers
class PowBackward0(Node):
    element_wise = True
    saves = ("self",)
    keeps = ("exponent",)

    def backward(self, grad):
        exponent = self.exponent
        if exponent == 0:
            return _make(np.zeros_like(grad._data))
        # pow_backward: grad * (exponent * self.pow(exponent - 1))
        return grad * mul_scalar(pow(self.saved("self"), float(exponent) - 1), float(exponent))


class PowBackward1(Node):
    element_wise = True
    args = ("self", "exponent")
    saves = ("exponent", "result", "self")

    def backward(self, grad):
        exponent, base = self.saved("exponent"), self.saved("self")  # PyTorch's unpacking order
        ga = gb = None
        # The generated node computes its inputs' formulas in name order (exponent, then self), so
        # under create_graph the self formula's nodes are the newer ones, run first by a 2nd backward.
        if self._next_functions[1][0] is not None:
            # pow_backward_exponent: d/db a**b = a**b log a, taken as 0 where a == 0 and b >= 0.
            result = self.saved("result")
            zero = (base == 0) & (exponent >= 0)
            gb = grad * where(zero, 0.0, result * log(to_dtype(base, result._data.dtype)))
        if self._next_functions[0][0] is not None:
            # pow_backward_self: exactly 0 where the exponent is 0, even at base 0 (no 0 * inf).
            ga = where(exponent == 0.0, 0.0, grad * (exponent * pow(base, sub_scalar(exponent, 1))))
        return ga, gb


class PowBackward2(Node):
    element_wise = True
    args = ("exponent",)
    saves = ("exponent", "result")
    keeps = ("self",)

    def backward(self, grad):
        result, base = self.saved("result"), self.self
        with np.errstate(divide="ignore", invalid="ignore"):
            log_base = float(np.log(base))
        if base == 0:
            return grad * where(self.saved("exponent") >= 0, 0.0, mul_scalar(result, log_base))
        return grad * mul_scalar(result, log_base)


# PyTorch computes these exponents by multiplication, bit for bit, and it is faster than np.power.
_SPECIAL_POWERS = {
    2: lambda a: a * a, 3: lambda a: a * a * a, -1: lambda a: 1 / a, -2: lambda a: 1 / (a * a),
    0.5: np.sqrt, -0.5: lambda a: 1 / np.sqrt(a),
}


def _np_int_power(a, e):
    """PyTorch's integer power: a negative exponent gives 1 for base 1, +-1 for base -1, else 0."""
    neg = np.less(e, 0)
    if not np.any(neg):
        return np.power(a, e)
    out = np.power(a, np.where(neg, 0, e))
    odd = np.abs(e) % 2 == 1
    inverse = np.where(a == 1, 1, np.where(a == -1, np.where(odd, -1, 1), 0))
    return np.where(neg, inverse, out).astype(out.dtype, copy=False)


def _np_power(a, e):
    if a.dtype.kind == "f":
        special = _SPECIAL_POWERS.get(e)
        if special is not None:
            return special(a).astype(a.dtype, copy=False)
        if a.dtype.itemsize < 8:  # the exponent is cast to the tensor's dtype first, as ATen's kernel
            return _powf(a, np.asarray(e, a.dtype))
        return np.power(a, e)
    if isinstance(e, int) and e < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return np.power(a, e)


def _np_powers(a, e):
    """Elementwise ``a ** e`` for two arrays (or a number base) of the result dtype."""
    if np.asarray(a).dtype.kind in "biu" and np.asarray(e).dtype.kind in "biu":
        return _np_int_power(a, e)
    dt = np.result_type(a, e)
    if dt.kind == "f" and dt.itemsize < 8:
        return _powf(np.asarray(a, dt), np.asarray(e, dt))
    return np.power(a, e)


def _powf(a, e):
    """A float32 (or half) power as PyTorch's kernels get it from powf: computed in double and
    rounded once (NumPy's own float32 power is an ulp off in about one case in five, which tan or
    a large exponent then magnifies)."""
    return np.power(a.astype(np.float64), e.astype(np.float64)).astype(np.result_type(a, e), copy=False)


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
        out = _make(np.asarray(_np_powers(a, e), order="C"))  # pow(Scalar, Tensor) is contiguous
        if grad_on(exponent):
            node = PowBackward2()
            node.self = input
            node.save(exponent=exponent)
            node.save_output(result=out)
            record(out, node, (exponent,))
        return out
    a, e = operands(input, exponent)
    out = _make(_np_powers(a, e))
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
    if 0 in data.strides and data.size > 1:
        # An expanded input: NumPy would lay the result's stride-0 dims innermost; TensorIterator
        # keeps them where they are (preserve_layout's order)
        data = preserve_layout(data, data.dtype)
    out = _make(fn(data))
    if input._requires_grad and grad_mode._state[0] or forward_mode.levels and grad_on(input):
        node = node_cls()
        if saves == "self":
            node.save(self=input)
        elif saves == "result":
            node.save_output(result=out)
        record(out, node, (input,))
    return out


class NegBackward0(Node):
    element_wise = True
    def backward(self, grad):
        return -grad


class AbsBackward0(Node):
    element_wise = True
    saves = ("self",)

    def backward(self, grad):
        return grad * sgn(self.saved("self"))  # derivatives.yaml: grad * self.sgn()


class ExpBackward0(Node):
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        return grad * self.saved("result")


class LogBackward0(Node):
    element_wise = True
    saves = ("self",)

    def backward(self, grad):
        return grad / self.saved("self")


class Log1PBackward0(Node):
    element_wise = True
    saves = ("self",)

    def backward(self, grad):
        return grad / add_scalar(self.saved("self"), 1)


class SqrtBackward0(Node):
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        return grad / mul_scalar(self.saved("result"), 2)


class SinBackward0(Node):
    element_wise = True
    saves = ("self",)

    def backward(self, grad):
        return grad * cos(self.saved("self"))


class CosBackward0(Node):
    element_wise = True
    saves = ("self",)

    def backward(self, grad):
        return grad * -sin(self.saved("self"))


class TanBackward0(Node):
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        return grad * add_scalar(pow(self.saved("result"), 2), 1)  # grad * (1 + result.pow(2))


class TanhBackward0(Node):
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        return tanh_backward(grad, self.saved("result"))


class SigmoidBackward0(Node):
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        return sigmoid_backward(grad, self.saved("result"))


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
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        return threshold_backward(grad, self.saved("result"))


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
    out = _make(np.where(result._data <= 0, 0, grad._data).astype(grad._data.dtype, copy=False))
    if grad_on(grad, result):
        node = ThresholdBackwardBackward0()
        node.save(self=result)
        record(out, node, (grad, result))
    return out


class ReciprocalBackward0(Node):
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        result = self.saved("result")
        return -grad * (result * result)


class ZeroGradBackward(Node):
    """Step functions (sign, floor, round, ...) have a zero gradient almost everywhere.

    ``zeros_like(grad)``, as derivatives.yaml says: not ``grad * 0``, which keeps inf and NaN as NaN.
    """

    element_wise = True
    def backward(self, grad):
        return _make(np.zeros_like(grad._data))


def _zero_grad_node(name):
    return type(name, (ZeroGradBackward,), {"__doc__": f"Zero gradient of {name[:-9].lower()}."})


SignBackward0 = _zero_grad_node("SignBackward0")
FloorBackward0 = _zero_grad_node("FloorBackward0")
CeilBackward0 = _zero_grad_node("CeilBackward0")
RoundBackward0 = _zero_grad_node("RoundBackward0")
TruncBackward0 = _zero_grad_node("TruncBackward0")


def neg(input):
    if input._data.dtype == np.bool_:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                           "to invert a mask, use the `~` or `logical_not()` operator instead.")
    return _unary(input, np.negative, NegBackward0, floating=False)


def abs(input):
    return _unary(input, np.abs, AbsBackward0, "self", floating=False)


def exp(input):
    return _unary(input, _fp.exp, ExpBackward0, "result")


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
    out = empty_preserving(x, x.dtype)
    pos = x >= 0
    out[pos] = 1 / (1 + np.exp(-x[pos]))
    e = np.exp(x[~pos])
    out[~pos] = e / (1 + e)
    return out


def sigmoid(input):
    return _unary(input, _np_sigmoid, SigmoidBackward0, "result")


def relu(input):
    # d < 0, not np.maximum: PyTorch's relu keeps -0.0 (and NaN) as it is
    return _unary(input, lambda d: np.where(d < 0, 0, d).astype(d.dtype, copy=False), ReluBackward0,
                  "result", floating=False)


def reciprocal(input):
    return _unary(input, np.reciprocal, ReciprocalBackward0, "result")


def _np_sign(d):
    if d.dtype.kind == "b":
        return d.copy()
    if d.dtype.kind == "f":
        return np.nan_to_num(np.sign(d), nan=0.0)  # PyTorch's (0 < x) - (x < 0): 0 for NaN
    return np.sign(d)


def sign(input):
    return _unary(input, _np_sign, SignBackward0, floating=False)


class SgnBackward0(Node):
    element_wise = True
    saves = ("result", "self")

    def backward(self, grad):
        # sgn_backward: (grad - sgn * sgn * grad) / (2 |x|), 0 where x == 0; for real x PyTorch
        # returns an efficient zero tensor: zeros whatever the gradient (inf, NaN), no history, and
        # never added into in place by the engine.
        x, s = self.saved("self"), self.saved("result")
        if x._data.dtype.kind != "c":
            return zerotensor.mark(_make(np.zeros(grad._data.shape, dtype=x._data.dtype)))
        from .indexing import masked_fill
        a = abs(x)
        return masked_fill((grad - s * s * grad) / mul_scalar(a, 2.0), a == 0, 0)


def sgn(input):
    """The sign of each element (for real tensors, ``sign``); abs's gradient multiplies by it."""
    out = _make(_np_sign(input._data))
    if input._requires_grad and grad_mode._state[0] or forward_mode.levels and grad_on(input):
        node = SgnBackward0()
        node.save(self=input)
        node.save_output(result=out)
        record(out, node, (input,))
    return out


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
    element_wise = True
    def backward(self, grad):
        return grad


class ToCopyBackward0(Node):
    def jvp(self, tangents, inputs, result):
        return to_dtype(tangents[0], result._data.dtype) if result._data.dtype.kind in "fc" else None

    def backward(self, grad):
        meta = self._input_meta
        if meta is not None and meta[0] is not None and meta[0][1] != grad._data.dtype and meta[0][1].kind == "f":
            # _to_copy_backward casts first; the engine then sums to the input's shape if it changed
            # (SumBackward0 over ToCopyBackward0 under create_graph)
            return to_dtype(grad, meta[0][1])
        return grad


def clone(input, memory_format=None):
    d = input._data
    out = _make(d.copy() if d.flags.c_contiguous else preserve_layout(d, d.dtype))
    if grad_on(input):
        record(out, CloneBackward0(), (input,))
    return out


def preserve_layout(d, np_dtype):
    """A copy of the array ``d`` as ``np_dtype`` laid out as PyTorch's ``memory_format=preserve``."""
    out = empty_preserving(d, np_dtype)
    out[...] = d
    return out


def empty_preserving(d, np_dtype):
    """An empty array of ``d``'s shape laid out as PyTorch lays out a new tensor like ``d``
    (``empty_like``, an elementwise op's output): dense strides are kept; otherwise
    ``infer_dense_strides`` orders the dims as ``d``'s strides do (ties, and stride-0 dims, keep
    the contiguous order)."""
    from .inplace import _dense
    if d.flags.c_contiguous:
        return np.empty(d.shape, np_dtype)
    if _dense(d):
        return np.empty_like(d, dtype=np_dtype)  # NumPy's K order keeps a dense layout
    strides, sizes = d.strides, d.shape
    perm = list(range(d.ndim - 1, -1, -1))  # innermost first
    for i in range(1, d.ndim):  # PyTorch's insertion sort, stopping at an ambiguous pair
        d1 = i
        for d0 in range(i - 1, -1, -1):
            a, b = perm[d0], perm[d1]
            sa, sb = strides[a], strides[b]
            swap = 0 if sa == 0 or sb == 0 else (-1 if sa < sb else 1 if sa > sb or sizes[a] > sizes[b] else 0)
            if swap > 0:
                perm[d0], perm[d1] = b, a
                d1 = d0
            elif swap < 0:
                break
    outer = perm[::-1]
    return np.transpose(np.empty(tuple(sizes[k] for k in outer), np_dtype), np.argsort(outer))


def to_dtype(input, np_dtype):
    if input._data.dtype == np_dtype:
        return input
    d = input._data
    if d.flags.c_contiguous:
        out = _make(d.astype(np_dtype))
    else:
        out = _make(preserve_layout(d, np_dtype))
    if grad_on(input) and out._data.dtype.kind == "f":
        record(out, ToCopyBackward0(), (input,))
    return out
