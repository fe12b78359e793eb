"""More elementwise math: erf, erfc, expm1, log2, log10, the hyperbolic and inverse trigonometric
functions (with numpy's ``arc*`` aliases, as torch has them), rsqrt, logit and xlogy.

Each op is ``unary._op``'s recorded op (one call, one node) with derivatives.yaml's backward written in
Tensor ops, so ``create_graph=True`` differentiates it again; the nodes are ``element_wise``, so forward
mode derives the JVP from the backward. float32 results are the float64 result rounded once (PyTorch's
SLEEF and libm kernels are all but correctly rounded: 92-99.9% agree), but for rsqrt, whose kernel is
``1 / sqrt(x)`` in float32 (exact against torch 2.13 on 20,000 values).
"""
import math

from .. import _fp, _glibc32
from ..node import Node
from .base import Tensor, _make, float_data, grad_on, np, operands, record
from .comparison import where
from .powers import pow
from .unary import _op, exp

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_LN2 = 0.6931471805599453
_LN10 = 2.3025850929940456


class _Unary(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)


# ---------------------------------------------------------------------------- erf, erfc, expm1, log2, log10
class ErfBackward0(_Unary):
    def backward(self, grad):
        x = self.saved("self")
        return _TWO_OVER_SQRT_PI * exp(-(x * x)) * grad


class ErfcBackward0(_Unary):
    def backward(self, grad):
        x = self.saved("self")
        return -_TWO_OVER_SQRT_PI * exp(-(x * x)) * grad


class Expm1Backward0(Node):
    element_wise, args = True, ("self",)
    saves = ("result",)

    def backward(self, grad):
        return grad * (self.saved("result") + 1)


class Log2Backward0(_Unary):
    def backward(self, grad):
        return grad / (self.saved("self") * _LN2)


class Log10Backward0(_Unary):
    def backward(self, grad):
        return grad / (self.saved("self") * _LN10)


def _libm(fn):
    """``fn`` (a :mod:`math` function NumPy lacks) elementwise on float64 data."""
    def run(d):
        return _fp.libm(fn, np.asarray(d, np.float64)) if np.ndim(d) else np.float64(fn(float(d)))
    return run


erf = _op("erf", _libm(math.erf), ErfBackward0, "self", fn32=_fp.via_float64(_libm(math.erf)))
erfc = _op("erfc", _libm(math.erfc), ErfcBackward0, "self", fn32=_fp.via_float64(_libm(math.erfc)))
expm1 = _op("expm1", np.expm1, Expm1Backward0, "result", fn32=_fp.via_float64(np.expm1))
log2 = _op("log2", np.log2, Log2Backward0, "self", fn32=_fp.via_float64(np.log2))
log10 = _op("log10", np.log10, Log10Backward0, "self", fn32=_fp.via_float64(np.log10))


# ---------------------------------------------------------------------------- hyperbolic
class SinhBackward0(_Unary):
    def backward(self, grad):
        return grad * cosh(self.saved("self"))


class CoshBackward0(_Unary):
    def backward(self, grad):
        return grad * sinh(self.saved("self"))


sinh = _op("sinh", np.sinh, SinhBackward0, "self", fn32=_fp.via_float64(np.sinh))
cosh = _op("cosh", np.cosh, CoshBackward0, "self", fn32=_fp.via_float64(np.cosh))


# ---------------------------------------------------------------------------- inverse trigonometric
class AsinBackward0(_Unary):
    def backward(self, grad):
        x = self.saved("self")
        return grad * rsqrt(-x * x + 1)


class AcosBackward0(_Unary):
    def backward(self, grad):
        x = self.saved("self")
        return grad * -rsqrt(-x * x + 1)


class AtanBackward0(_Unary):
    def backward(self, grad):
        x = self.saved("self")
        return grad / (x * x + 1)


class AsinhBackward0(_Unary):
    def backward(self, grad):
        return grad * rsqrt(pow(self.saved("self"), 2) + 1)


class AcoshBackward0(_Unary):
    def backward(self, grad):
        return grad * rsqrt(pow(self.saved("self"), 2) - 1)


class AtanhBackward0(_Unary):
    def backward(self, grad):
        return grad * 1 / (1 - pow(self.saved("self"), 2))


def _inverse(name, fn, node_cls):
    # torch.asin and torch.arcsin are two functions (each names itself in its errors)
    f32 = _fp.via_float64(fn)
    return (_op(name, fn, node_cls, "self", fn32=f32),
            _op("arc" + name[1:], fn, node_cls, "self", fn32=f32))


asin, arcsin = _inverse("asin", np.arcsin, AsinBackward0)
acos, arccos = _inverse("acos", np.arccos, AcosBackward0)
atan, arctan = _inverse("atan", np.arctan, AtanBackward0)
asinh, arcsinh = _inverse("asinh", np.arcsinh, AsinhBackward0)
acosh, arccosh = _inverse("acosh", np.arccosh, AcoshBackward0)
atanh, arctanh = _inverse("atanh", np.arctanh, AtanhBackward0)


# ---------------------------------------------------------------------------- rsqrt
class RsqrtBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("result",)

    def backward(self, grad):
        return -0.5 * grad * pow(self.saved("result"), 3)


def _np_rsqrt(d):
    # ATen's kernel: 1 / sqrt(x) in the input's dtype
    return d.dtype.type(1) / np.sqrt(d)


rsqrt = _op("rsqrt", _np_rsqrt, RsqrtBackward0, "result")


# ---------------------------------------------------------------------------- logit
class LogitBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)
    keeps = ("eps",)

    def backward(self, grad):
        # logit_backward: grad / (x * (1 - x)) inside [eps, 1 - eps] (else 0), or without eps
        # inside [0, 1] (else NaN)
        x = self.saved("self")
        lo, hi = (0.0, 1.0) if self.eps is None else (self.eps, 1.0 - self.eps)
        inside = (x >= lo) & (x <= hi)
        return where(inside, grad / (x * (1 - x)), math.nan if self.eps is None else 0.0)


def logit(input, eps=None):
    """``log(p / (1 - p))``, with ``p`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given
    (``grad_fn=<LogitBackward0>``).

    Args:
        input (Tensor): the input.
        eps (float, optional): the clamp's bound. Default: ``None`` (no clamp).

    Example::

        >>> torch.logit(torch.tensor([0.25, 0.5, 1.0]), eps=1e-6)
        tensor([-1.0986,  0.0000, 13.8155])
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"logit(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    d = float_data(input)
    t = d.dtype.type
    if eps is not None:
        d = np.where(d < t(eps), t(eps), np.where(d > t(1 - eps), t(1 - eps), d))
    q = d / (t(1) - d)
    out = _make(np.asarray(_fp.in_float64(np.log, q)))
    if grad_on(input):
        node = LogitBackward0()
        node.eps = eps
        node.save(self=input)
        record(out, node, (input,))
    return out


# ---------------------------------------------------------------------------- xlogy
class XlogyBackward0(Node):
    """Both operands tensors. derivatives.yaml: self ``xlogy(grad, other)`` but 0 where
    ``self == 0 and other <= 0``; other ``grad * self / other``."""
    element_wise, args = True, ("self", "other")
    saves = ("other", "self")

    def backward(self, grad):
        x, y = self.saved("self"), self.saved("other")
        gx = gy = None
        if self._next_functions[0][0] is not None:
            gx = where((x == 0) & (y <= 0), 0.0, xlogy(grad, y))
        if self._next_functions[-1][0] is not None:
            gy = grad * x / y
        return gx, gy


class XlogyBackward1(Node):
    """``xlogy(number, tensor)``: one edge, for ``other``."""
    element_wise, args = True, ("other",)
    keeps = ("self",)
    saves = ("other",)

    def backward(self, grad):
        return grad * self.self / self.saved("other")


class XlogyBackward2(Node):
    """``xlogy(tensor, number)``: one edge, for ``self``."""
    element_wise, args = True, ("self",)
    keeps = ("other",)
    saves = ("self",)

    def backward(self, grad):
        g = xlogy(grad, self.other)
        return g if self.other > 0 else where(self.saved("self") == 0, 0.0, g)


def _default_float():
    from ..dtypes import get_default_dtype
    return get_default_dtype().np


def _np_xlogy(a, b):
    # 0 where a == 0 unless b is NaN; ATen's scalar kernel takes std::log, for float32 glibc's logf
    logb = _glibc32.logf(b) if b.dtype == np.float32 else np.log(b)
    return np.where(np.isnan(b), b, np.where(a == 0, a.dtype.type(0), a * logb)).astype(a.dtype, copy=False)


def xlogy(input, other):
    """``input * log(other)``, and 0 where ``input == 0`` (unless ``other`` is NaN)
    (``grad_fn=<XlogyBackward0>``; ``XlogyBackward1``/``2`` with a number for ``input``/``other``).

    Args:
        input (Tensor or Number): the multiplier.
        other (Tensor or Number): the log's argument.

    Example::

        >>> torch.xlogy(torch.tensor([0., 2.]), torch.tensor([0., 3.]))
        tensor([0.0000, 2.1972])
    """
    a_tensor, b_tensor = isinstance(input, Tensor), isinstance(other, Tensor)
    if not a_tensor and not b_tensor:
        raise TypeError(
            f"xlogy() received an invalid combination of arguments - got ({type(input).__name__}, "
            f"{type(other).__name__}), but expected one of:\n * (Tensor input, Tensor other, *, Tensor out = None)\n"
            " * (Number self, Tensor other, *, Tensor out = None)\n * (Tensor input, Number other, *, Tensor out = None)\n")
    if a_tensor:
        a, b = operands(input, other)
    else:
        b, a = operands(other, input)
    dtype = (a if a_tensor else b).dtype  # the tensors' promoted dtype; integers give the default float
    if dtype.kind != "f":
        dtype = _default_float()
    a, b = np.asarray(a, dtype=dtype), np.asarray(b, dtype=dtype)
    out = _make(np.asarray(_np_xlogy(a, b)))
    if a_tensor and b_tensor:
        if grad_on(input, other):
            node = XlogyBackward0()
            node.save(self=input, other=other)
            record(out, node, (input, other))
    elif a_tensor:
        if grad_on(input):
            node = XlogyBackward2()
            node.other = other
            node.save(self=input)
            record(out, node, (input,))
    elif grad_on(other):
        node = XlogyBackward1()
        node.self = input
        node.save(other=other)
        record(out, node, (other,))
    return out
