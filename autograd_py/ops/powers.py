"""pow and square: PyTorch's exponent rules, its special-cased powers and float32 powf."""
from .. import forward_mode
from ..grad_mode import _inference, _state as _grad_enabled
from ..node import Node, _sequence
from ..saved_tensor import default_hooks, saved_input
from .._tensor import _new
from .base import Tensor, _make, _plain_edge, grad_on, node_recorder, np, operands, record, record_like
from .comparison import where
from .pointwise import mul_scalar, sub_scalar, to_dtype
from .unary import log


class PowBackward0(Node):
    numpy_formula = True
    element_wise = True
    saves = ("self",)
    keeps = ("exponent",)

    def backward(self, grad):
        exponent = self.exponent
        if exponent == 0:
            if isinstance(grad, Tensor):
                return _make(np.zeros_like(grad._data))
            return np.zeros_like(grad)  # a formula running on NumPy data (numpy_backward)
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


_F64 = np.dtype(np.float64)
_ndarray = np.ndarray
_fw_levels = forward_mode.levels


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


def _pow_plain(input, exponent):
    """``pow(input, exponent)`` for a float64 Tensor and a Python number while nothing else watches
    recording (x ** 2, and pow's backward under create_graph), made and recorded inline as the
    general path in ``pow`` does it; None when that path is needed."""
    a = input._data
    if a.dtype is not _F64 or 0 in a.strides or _inference[0] or _fw_levels or default_hooks:
        return None
    special = _SPECIAL_POWERS.get(exponent)
    res = special(a) if special is not None else np.power(a, exponent)
    out = _new(Tensor)  # _make's body
    out._data = res if res.__class__ is _ndarray else np.asarray(res)  # (a NumPy scalar at 0 dims)
    out._version_counter = [0]
    if input._requires_grad and _grad_enabled[0]:
        fn = input._grad_fn
        if fn is not None and input._kept_fn is None and input._fn_shape is None:
            edge = (fn, input._output_nr)  # _plain_edge's common case
        else:
            edge = _plain_edge(input, a)
            if edge is None:
                return None
        node = _new(PowBackward0)  # Node.__init__'s body
        node._seq = next(_sequence)
        node.exponent = exponent
        node._vars = saved = saved_input(input)  # the one saved tensor, without a dict (node_saved.saved_map)
        saved.name = "self"
        node._next_functions = (edge,)
        node._input_meta = None
        out._grad_fn = node
        out._requires_grad = True
        if node_recorder[0] is not None:
            node_recorder[0](node)
    return out


def pow(input, exponent):
    cls = exponent.__class__
    if input.__class__ is Tensor and (cls is float or cls is int):
        out = _pow_plain(input, exponent)
        if out is not None:
            return out
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        return _np_power(input, exponent)  # a formula running on NumPy data (numpy_backward)
    if isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        a, e = operands(input, exponent)
        out = _make(_np_power(a, e))
        if grad_on(input):
            node = PowBackward0()
            node.exponent = exponent
            node.save_one("self", input)
            record_like(out, node, input)
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
