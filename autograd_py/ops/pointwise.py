"""Elementwise primitives. Each backward class gives one formula per input, as derivatives.yaml does.

Binary arithmetic, copies and casts live here; powers and the one-tensor functions live in
``powers`` and ``unary`` and are re-exported at the end, where the method table reads them."""
import operator as _operator

from .. import _fp
from ..dtypes import get_default_dtype
from ..node import Node
from .base import Tensor, _make, grad_on, np, operands, record, record_like, scalar_operands
from . import plain_binary, zerotensor
from .zerotensor import made as _zeros_made
from .iter_layout import laid_out
# Copies and casts live in ``copies``; re-exported here, where the ops and the method table look.
from .copies import (CloneBackward0, ToCopyBackward0, clone, empty_preserving, preserve_layout,  # noqa: F401
                     to_dtype)
from ..forward_mode import levels as _fw_levels
from ..grad_mode import _state as _grad_enabled

_ndarray, _F64 = np.ndarray, np.dtype(np.float64)


# ---------------------------------------------------------------------------- binary arithmetic
def _recording(input, other):
    """``grad_on(input, other)`` for a Tensor ``input``, checking the common cases first."""
    if _grad_enabled[0] and (input._requires_grad or (other.__class__ is not float and isinstance(other, Tensor)
                                                      and other._requires_grad)):
        return True
    return bool(_fw_levels) and grad_on(input, other)


def _scaled_tangent(t, alpha):
    """derivatives.yaml's ``maybe_multiply(t, alpha)``: ``t * alpha`` (mul.Scalar) unless alpha is 1."""
    return t if t is None or alpha == 1 else mul_scalar(t, alpha)


class AddBackward0(Node):
    keeps = ("alpha",)

    def jvp(self, tangents, inputs, result):
        # self_t + maybe_multiply(other_t, alpha)
        from ..forward_mode import formula_tangents
        at, bt = formula_tangents(tangents, inputs, result)
        bt = _scaled_tangent(bt, self.alpha)
        return bt if at is None else at if bt is None else at + bt

    def backward(self, grad):
        return grad, (grad if self.alpha == 1 else mul_scalar(grad, self.alpha))


class SubBackward0(Node):
    numpy_formula = True
    keeps = ("alpha",)

    def jvp(self, tangents, inputs, result):
        # self_t - maybe_multiply(other_t, alpha)
        from ..forward_mode import formula_tangents
        at, bt = formula_tangents(tangents, inputs, result)
        bt = _scaled_tangent(bt, self.alpha)
        return -bt if at is None else at if bt is None else at - bt

    def backward(self, grad):
        return grad, (-grad if self.alpha == 1 else mul_scalar(-grad, self.alpha))


class RsubBackward1(Node):
    numpy_formula = True
    element_wise = True
    keeps = ("alpha",)

    def backward(self, grad):
        return -grad if self.alpha == 1 else mul_scalar(-grad, self.alpha)


class RsubBackward0(Node):
    numpy_formula = True
    keeps = ("alpha",)

    def jvp(self, tangents, inputs, result):
        # -maybe_multiply(self_t, alpha) + other_t
        from ..forward_mode import formula_tangents
        at, bt = formula_tangents(tangents, inputs, result)
        at = None if at is None else -_scaled_tangent(at, self.alpha)
        return bt if at is None else at if bt is None else at + bt

    def backward(self, grad):
        return (-grad if self.alpha == 1 else mul_scalar(-grad, self.alpha)), grad


class MulBackward0(Node):
    numpy_formula = True
    saves = ("other", "self")

    def jvp(self, tangents, inputs, result):
        # other_t * self_p + self_t * other_p
        from ..forward_mode import formula_tangents
        (at, bt), (a, b) = formula_tangents(tangents, inputs, result), inputs
        left = None if bt is None else bt * a
        right = None if at is None else at * b
        return right if left is None else left if right is None else left + right

    def backward(self, grad):
        # It unpacks other, then self, and computes its formulas in name order, other's first: under
        # create_graph the nodes' sequence numbers, so the engine's order and float32 sums, follow it.
        other = self.saved("other") if self._next_functions[0][0] is not None else None
        gb = grad * self.saved("self") if self._next_functions[1][0] is not None else None
        if grad.__class__ is _ndarray and other.__class__ is float and grad.dtype is _F64:
            # NumPy data (numpy_backward): a float64 array times a 0-dim array costs 0.6 of it
            # times a Python float, with the same products (as mul_scalar)
            return np.multiply(grad, plain_binary.as_array(other)), gb
        ga = grad * other if other is not None else None
        return ga, gb


class AddBackward1(Node):
    element_wise = True
    def backward(self, grad):
        return grad


def add_scalar(input, other):
    """``input + other`` for a number, as ATen's formulas add (``add.Scalar``: AddBackward1)."""
    if input.__class__ is _ndarray or input.__class__ is not Tensor and not isinstance(input, Tensor):
        return np.add(input, other)  # a formula running on NumPy data (numpy_backward)
    out = _make(np.add(input._data, other))
    if grad_on(input):
        record_like(out, AddBackward1(), input)
    return out


class MulBackward1(Node):
    numpy_formula = True
    element_wise = True
    keeps = ("other",)

    def backward(self, grad):
        return mul_scalar(grad, self.other)


class DivBackward0(Node):
    numpy_formula = True
    saves = ("other", "self")

    def jvp(self, tangents, inputs, result):
        # (self_t - other_t * result) / other_p: reads the result, so an in-place x.div_(x) gives
        # (self_t - other_t) / x_new; a missing tangent's term is a zero that still reads its primals
        from ..forward_mode import formula_tangents
        (at, bt), (_, b) = formula_tangents(tangents, inputs, result), inputs
        part = None if bt is None else bt * result
        num = at if part is None else -part if at is None else at - part
        return num / b

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
    if dt == np.float32 or dt == np.float64:
        # ATen's add kernel fuses it: fma(other, alpha, self), alpha cast to the dtype first
        a, b = np.asarray(a, dt), np.asarray(b, dt)
        return np.asarray(_fp.fma(b, dt.type(alpha), a), dt).reshape(np.broadcast_shapes(a.shape, b.shape))
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


def _add(input, other, alpha=1):
    a, b = operands(input, other)
    scalars = None if a.ndim or alpha != 1 or alpha is True else scalar_operands(a, b)
    if scalars is None:
        res = np.add(a, b) if alpha == 1 and alpha is not True else _scaled(a, b, alpha)
        out = _make(laid_out(res, a, b) if res.ndim > 1 else res)
    else:
        out = _make(scalars[0] + scalars[1])
    if _zeros_made[0]:
        zerotensor.total(out, input, other, alpha)
    if _grad_enabled[0] and (input._requires_grad or other.__class__ is Tensor and other._requires_grad) \
            or _recording(input, other):
        node = AddBackward0()
        node.alpha = alpha
        record_like(out, node, input, other)
    return out


def _sub(input, other, alpha=1):
    if input._data.dtype == np.bool_ or _is_bool(other):
        _sub_check(input, other)
    a, b = operands(input, other)
    scalars = None if a.ndim or alpha != 1 or alpha is True else scalar_operands(a, b)
    if scalars is None:
        res = np.subtract(a, b) if alpha == 1 and alpha is not True else _scaled(a, b, -alpha)
        out = _make(laid_out(res, a, b) if res.ndim > 1 else res)
    else:
        out = _make(scalars[0] - scalars[1])
    if _zeros_made[0]:
        zerotensor.total(out, input, other, -alpha)
    if _grad_enabled[0] and (input._requires_grad or other.__class__ is Tensor and other._requires_grad) \
            or _recording(input, other):
        node = SubBackward0()
        node.alpha = alpha
        record_like(out, node, input, other)
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


def _mul(input, other):
    a, b = operands(input, other)
    scalars = None if a.ndim else scalar_operands(a, b)
    if scalars is None:
        res = np.multiply(a, b)
        out = _make(laid_out(res, a, b) if res.ndim > 1 else res)
    else:
        out = _make(scalars[0] * scalars[1])
    if _zeros_made[0]:
        zerotensor.product(out, input, other)
    if _grad_enabled[0] and (input._requires_grad or other.__class__ is Tensor and other._requires_grad) \
            or _recording(input, other):
        node = MulBackward0()
        record_like(out, node, input, other)
        # Each is saved only for the other's gradient, so only when that one has an edge (a view made
        # under no_grad has none): PyTorch's should_compute_output guard on the save.
        edges = node._next_functions
        if other.__class__ is float:  # ``x * 0.5``: save_one's work inline (a number is kept as is)
            if edges[0][0] is not None:
                node._vars = {"other": other}
        elif edges[0][0] is not None:
            node.save_one("other", other)
        if edges[1][0] is not None:
            node.save_one("self", input)
    return out


def _binary(make, name, ufunc, op, node_cls, general):
    """``name`` as plain_binary's op, whose plain case needs one Python call; ``general`` the rest."""
    plain_binary.general[name] = general
    fn = make(name, ufunc, op, node_cls)
    fn.__name__ = fn.__qualname__ = name
    fn.__module__ = __name__
    return fn


add = _binary(plain_binary.summing, "add", np.add, _operator.add, AddBackward0, _add)
sub = _binary(plain_binary.summing, "sub", np.subtract, _operator.sub, SubBackward0, _sub)
mul = _binary(plain_binary.product, "mul", np.multiply, _operator.mul, MulBackward0, _mul)


class DivBackward2(Node):
    """Division with a rounding mode is piecewise constant: zero gradients, as in PyTorch."""
    element_wise = True
    keeps = ("rounding_mode",)

    def backward(self, grad):
        return tuple(None if fn is None else _make(np.zeros_like(grad._data)) for fn, _ in self._next_functions)


class DivBackward1(Node):
    numpy_formula = True
    element_wise = True
    keeps = ("other",)

    def backward(self, grad):
        return div_scalar(grad, self.other)


def div_scalar(input, other):
    """``input / other`` for a number ``other``, as ATen's formulas divide (``div.Scalar``: DivBackward1)."""
    if input.__class__ is _ndarray or input.__class__ is not Tensor and not isinstance(input, Tensor):
        return np.asarray(np.true_divide(input, other), dtype=input.dtype)  # NumPy data (numpy_backward)
    out = _make(np.asarray(np.true_divide(input._data, other), dtype=input._data.dtype))
    if _zeros_made[0]:
        zerotensor.quotient(out, input)
    if grad_on(input):
        node = DivBackward1()
        node.other = other
        record_like(out, node, input)
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
        record_like(out, SubBackward1(), input)
    return out


def mul_scalar(input, other):
    """``input * other`` for a number ``other``, as ATen's own formulas multiply (``mul.Scalar``,
    whose node is MulBackward1, where ``x * 2`` from Python records MulBackward0)."""
    if input.__class__ is not Tensor:
        if not isinstance(input, Tensor):  # a formula running on NumPy data (numpy_backward)
            if other.__class__ is float and input.__class__ is _ndarray and input.dtype is _F64:
                return np.multiply(input, plain_binary.as_array(other))
            return np.multiply(input, other)
    elif other.__class__ is float:
        out = plain_binary.scaled(input, other, MulBackward1)
        if out is not None:
            return out
    out = _make(np.multiply(input._data, other))
    if _zeros_made[0]:
        zerotensor.product(out, input, other)
    if grad_on(input):
        node = MulBackward1()
        node.other = other
        record_like(out, node, input)
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
    out = _make(laid_out(np.true_divide(a, b), a, b))
    if _zeros_made[0]:
        zerotensor.quotient(out, input)
    if grad_on(input, other):
        node = DivBackward0()
        node.save(other=other)
        record(out, node, (input, other))
        if node._next_functions[1][0] is not None:  # self is read by other's gradient alone
            node.save(self=input)
    return out


# Re-exported for the method table, the torch namespace and the ops that use them (last: they
# import the arithmetic above).
from .powers import pow, square  # noqa: E402
from .unary import (abs, ceil, cos, exp, floor, log, log1p, neg, reciprocal, relu, round, sgn,  # noqa: E402
                    sigmoid, sign, sin, sqrt, tan, tanh, trunc)

__all__ = ["add", "sub", "rsub", "mul", "div", "add_scalar", "sub_scalar", "mul_scalar", "div_scalar", "clone",
           "to_dtype", "pow", "square", "abs", "ceil", "cos", "exp", "floor", "log", "log1p", "neg", "reciprocal",
           "relu", "round", "sgn", "sigmoid", "sign", "sin", "sqrt", "tan", "tanh", "trunc"]
