"""Elementwise math learners reach for next: exp2, sinc, deg2rad, rad2deg, nan_to_num (one input) and
logaddexp, logaddexp2, hypot (two tensors, broadcast; the engine sums each gradient back to its input).

Backward formulas are derivatives.yaml's, written in Tensor ops (``create_graph=True`` works) on
``element_wise`` nodes (forward mode derives the JVP). float32 values follow ATen's kernels: the
arithmetic in float32 and each transcendental rounded once from float64.
"""
import math

from .. import _fp
from ..node import Node
from .base import _make, grad_on, np, operands, record
from .binary_math import _tensor_other
from .comparison import isfinite, where
from .math_fns import _default_float
from .unary import _op, cos, exp, sin

_LN2 = 0.6931471805599453



# ---------------------------------------------------------------------------- one input
class Exp2Backward0(Node):
    element_wise, args = True, ("self",)
    saves = ("result",)

    def backward(self, grad):
        return grad * self.saved("result") * _LN2


class SincBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)

    def backward(self, grad):
        # sinc_backward: grad * (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 where x == 0
        x = self.saved("self")
        x_pi = x * math.pi
        sq_pi = x * x * math.pi
        return where(sq_pi == 0.0, 0.0, grad * (x_pi * cos(x_pi) - sin(x_pi)) / sq_pi)


class Deg2RadBackward0(Node):
    element_wise, args = True, ("self",)

    def backward(self, grad):
        return grad * (math.pi / 180.0)


class Rad2DegBackward0(Node):
    element_wise, args = True, ("self",)

    def backward(self, grad):
        return grad * (180.0 / math.pi)


class NanToNumBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)

    def backward(self, grad):
        return grad * isfinite(self.saved("self"))


def _np_sinc(d):
    # ATen: 1 where x == 0, else sin(pi x) / (pi x), pi x in the input's dtype
    product = d * d.dtype.type(math.pi)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(d == 0, d.dtype.type(1), _fp.in_float64(np.sin, product) / product)


exp2 = _op("exp2", np.exp2, Exp2Backward0, "result", fn32=_fp.via_float64(np.exp2))
sinc = _op("sinc", _np_sinc, SincBackward0, "self")
deg2rad = _op("deg2rad", lambda d: d * d.dtype.type(math.pi / 180.0), Deg2RadBackward0)
rad2deg = _op("rad2deg", lambda d: d * d.dtype.type(180.0 / math.pi), Rad2DegBackward0)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced by ``nan``, ``posinf`` and ``neginf`` (by default 0 and the dtype's
    largest and lowest finite values) (``grad_fn=<NanToNumBackward0>``).

    Example::

        >>> torch.nan_to_num(torch.tensor([float('nan'), float('inf'), -1.]))
        tensor([ 0.0000e+00,  3.4028e+38, -1.0000e+00])
    """
    d = input._data
    if d.dtype.kind not in "fc":
        return _make(d.copy())
    out = _make(np.nan_to_num(d, nan=nan, posinf=posinf, neginf=neginf))
    if grad_on(input):
        node = NanToNumBackward0()
        node.save(self=input)
        record(out, node, (input,))
    return out


# ---------------------------------------------------------------------------- two tensors
class _Binary(Node):
    element_wise, args = True, ("self", "other")
    saves = ("other", "self")

    def backward(self, grad):
        a, b = self.saved("self"), self.saved("other")
        ga = self.part(grad, a, b) if self._next_functions[0][0] is not None else None
        gb = self.part(grad, b, a) if self._next_functions[1][0] is not None else None
        return ga, gb


class LogaddexpBackward0(_Binary):
    @staticmethod
    def part(grad, mine, theirs):
        return grad / (exp(theirs - mine) + 1)


class Logaddexp2Backward0(_Binary):
    @staticmethod
    def part(grad, mine, theirs):
        from .powers import pow
        return grad / (pow(2, theirs - mine) + 1)


class HypotBackward0(_Binary):
    saves = ("other", "result", "self")

    def backward(self, grad):
        a, b, r = self.saved("self"), self.saved("other"), self.saved("result")
        ga = grad * a / r if self._next_functions[0][0] is not None else None
        gb = grad * b / r if self._next_functions[1][0] is not None else None
        return ga, gb


def _floats(name, input, other, int_kernel):
    _tensor_other(name, other)
    a, b = operands(input, other)
    if a.dtype.kind != "f":  # integers and bools give the default float dtype (hypot's kernel takes none)
        if int_kernel is not None:
            from ..dtypes import from_numpy_dtype
            raise NotImplementedError(f'"{int_kernel}" not implemented for '
                                      f"'{from_numpy_dtype(a.dtype).legacy_name[:-6]}'")
        a, b = a.astype(_default_float()), b.astype(_default_float())
    return a, b


def _np_logaddexp(a, b, exp_fn, log1p_fn, scale):
    # ATen: a where both are the same infinity, else max + log1p(exp(-|a - b|)) (base 2: / ln 2)
    m = np.maximum(a, b)
    with np.errstate(invalid="ignore"):
        tail = _fp.in_float64(log1p_fn, _fp.in_float64(exp_fn, -np.abs(a - b)))
        value = m + (tail if scale is None else tail * a.dtype.type(scale))
    return np.where(np.isinf(m) & (a == b), a, value)


def _binary_op(name, value_fn, node_cls, saves_result=False, int_kernel=None):
    def op(input, other):
        a, b = _floats(name, input, other, int_kernel)
        out = _make(np.asarray(value_fn(a, b)))
        if grad_on(input, other):
            node = node_cls()
            node.save(self=input, other=other)
            if saves_result:
                node.save_output(result=out)
            record(out, node, (input, other))
        return out
    op.__name__ = op.__qualname__ = name
    return op


logaddexp = _binary_op("logaddexp", lambda a, b: _np_logaddexp(a, b, np.exp, np.log1p, None), LogaddexpBackward0)
logaddexp.__doc__ = """``log(exp(a) + exp(b))`` computed without overflow (``grad_fn=<LogaddexpBackward0>``).

    Example::

        >>> torch.logaddexp(torch.tensor([0., 1000.]), torch.tensor([0., 1000.]))
        tensor([   0.6931, 1000.6931])
    """
logaddexp2 = _binary_op("logaddexp2", lambda a, b: _np_logaddexp(a, b, np.exp2, np.log1p, 1 / _LN2),
                        Logaddexp2Backward0)
hypot = _binary_op("hypot", np.hypot, HypotBackward0, saves_result=True, int_kernel="hypot_cpu")
