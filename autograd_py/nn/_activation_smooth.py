"""Smooth activations with a dedicated backward in PyTorch: logsigmoid, selu and celu (elu's
kernel), mish; and softsign and tanhshrink, which PyTorch records as plain arithmetic.

Each backward is written in Tensor ops (or is an op with its own node), so ``create_graph=True``
differentiates it again, and is ``element_wise``, so forward mode derives its JVP from it. float32
values follow ATen's CPU kernels as measured against torch 2.13: SLEEF's vectorised ``exp`` for
logsigmoid's buffer; in ``cpu_kernel_vec``'s vector steps SLEEF's ``expm1``, ``log1p`` and ``tanh``
(taken as the float64 ones rounded once), on the rest glibc's (``_glibc32``); the compiler's fused
multiply-adds; coefficients in the input's dtype.
"""
from .. import _fp, _glibc32, grad_mode
from ..node import Node
from ..ops.base import _make, grad_on, np, record
from ..ops.comparison import where
from ..ops.pointwise import div, exp, log1p, sigmoid, sub, tanh
from ._activation_ops import _TANH_ROUNDED, _exp_in_loop
from ._activation_ops import EluBackward0 as _EluBackward0
from ._activation_piecewise import _F32, _check_tensor, _floating, _in64, _maybe_inplace, _unary

# torch.nn.functional.selu's constants (Klambauer et al., 2017), as ATen spells them
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946
_EXPM1_ROUNDED = _fp.via_float64(np.expm1)


# ---------------------------------------------------------------------------- logsigmoid
class LogSigmoidBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self", "buffer")

    def backward(self, grad):
        return log_sigmoid_backward(grad, self.saved("self"), self.saved("buffer"))


class LogSigmoidBackwardBackward0(Node):
    element_wise, args = True, ("grad_output", "self")
    saves = ("buffer", "grad_output", "self")

    def backward(self, grad):
        x = self.saved("self")
        g = log_sigmoid_backward(grad, x, self.saved("buffer")) if self._next_functions[0][0] is not None else None
        gx = None
        if self._next_functions[1][0] is not None:  # log_sigmoid_double_backward: (sigmoid(x) - 1) * sigmoid(x)
            s = sigmoid(x)
            gx = grad * self.saved("grad_output") * ((s - 1.0) * s)
        return g, gx


def log_sigmoid_backward(grad, x, buffer):
    """ATen's log_sigmoid_backward, one op: with ``z = buffer = exp(-|x|)``,
    ``grad * (1 - z / (1 + z))`` where ``x < 0``, else ``grad * z / (1 + z)``."""
    z, one = buffer._data, buffer._data.dtype.type(1)
    neg = x._data < 0
    value = grad._data * (neg.astype(z.dtype) - np.where(neg, one, -one) * (z / (one + z)))
    out = _make(value.astype(grad._data.dtype, copy=False))
    if grad_on(grad, x):
        node = LogSigmoidBackwardBackward0()
        node.save(buffer=buffer, grad_output=grad, self=x)
        record(out, node, (grad, x))
    return out


def log_sigmoid_parts(d):
    """ATen's log_sigmoid_forward on data ``d``: ``min(d, 0) - log1p(z)`` and its buffer ``z =
    exp(-|d|)``. The kernel is Vectorized, tails included: float32's exp and log1p are SLEEF's
    (``_fp.vector_exp32``, ``_fp.vector_log1p32``)."""
    if d.dtype == _F32:
        z = _fp.vector_exp32(-np.abs(d))
        return (np.minimum(d, d.dtype.type(0)) - _fp.vector_log1p32(z)).astype(d.dtype, copy=False), z
    z = np.exp(-np.abs(d))
    return (np.minimum(d, d.dtype.type(0)) - np.log1p(z)).astype(d.dtype, copy=False), z


def logsigmoid(input):
    """``log(sigmoid(x))``, computed as ``min(x, 0) - log1p(exp(-|x|))`` (``grad_fn=<LogSigmoidBackward0>``).

    Example::

        >>> F.logsigmoid(torch.tensor([-1., 0., 1.]))
        tensor([-1.3133, -0.6931, -0.3133])
    """
    _check_tensor(input, "log_sigmoid")
    d = _floating(input, "log_sigmoid_cpu")
    value, z = log_sigmoid_parts(d)
    out = _make(value)
    if grad_on(input):
        node = LogSigmoidBackward0()
        node.save(self=input, buffer=_make(z))
        record(out, node, (input,))
    return out


# ---------------------------------------------------------------------------- selu / celu
def _elu_grad(grad, x, alpha, scale, input_scale, is_result):
    """ATen's elu_backward: ``x`` is the input, or with ``is_result`` the output (in-place ops)."""
    if not is_result and not grad_mode.is_grad_enabled() and grad._data.dtype == x._data.dtype == _F32:
        # ATen's float32 kernel: its exp is SLEEF's in vector steps, glibc's on the rest
        a, b, t = grad._data, x._data, np.float32
        with np.errstate(over="ignore"):
            e = _exp_in_loop(np.minimum(b, t(0)) * t(input_scale))
        neg = a * t(input_scale) * t(alpha * scale) * e
        return _make(np.where(b <= 0, neg, a * t(scale)))
    if is_result:
        neg = grad * input_scale * (x + alpha * scale)
    else:
        # exp of min(x, 0): the same value where it is used, and, as ATen's elu_double_backward
        # (masked by self < 0), no second derivative at x = 0
        # (ATen's order: grad * input_scale * (alpha * scale) * exp(x * input_scale))
        neg = grad * input_scale * (alpha * scale) * exp(where(x < 0, x, 0.0) * input_scale)
    return where(x <= 0, neg, grad * scale)


class EluBackward0(_EluBackward0):
    """elu's node (selu records it) with ATen's ``scale`` and ``input_scale`` in its formula."""

    def backward(self, grad):
        return _elu_grad(grad, self.saved("self"), self.alpha, self.scale, self.input_scale, False)


class EluBackward1(Node):
    element_wise, args = True, ("self",)
    keeps = ("alpha", "input_scale", "scale")
    saves = ("result",)

    def backward(self, grad):
        return _elu_grad(grad, self.saved("result"), self.alpha, self.scale, self.input_scale, True)


class CeluBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)
    keeps = ("alpha",)

    def backward(self, grad):
        return _elu_grad(grad, self.saved("self"), self.alpha, 1, 1.0 / self.alpha, False)


class CeluBackward1(Node):
    element_wise, args = True, ("self",)
    saves = ("result",)
    keeps = ("alpha",)

    def backward(self, grad):
        return _elu_grad(grad, self.saved("result"), self.alpha, 1, 1.0 / self.alpha, True)


def _elu_value(d, alpha, scale, input_scale):
    # ATen: x <= 0 ? expm1(x * input_scale) * (alpha * scale) : x * scale, the coefficients and
    # products in the input's dtype; float32's expm1 SLEEF's in vector steps (taken as the float64
    # one rounded), glibc's expm1f on the rest
    t = d.dtype.type
    z = d * t(input_scale) if input_scale != 1 else d
    if d.dtype == _F32:
        neg = _fp.vectorized_loop32(_EXPM1_ROUNDED, _glibc32.expm1f, z) * t(alpha * scale)
    else:
        neg = np.expm1(z) * t(alpha * scale)
    return np.where(d > 0, d * t(scale) if scale != 1 else d, neg)


def elu(input, alpha=1.0, inplace=False):
    """``x`` for positive ``x``, else ``alpha * (exp(x) - 1)`` (``grad_fn=<EluBackward0>``; in place
    ``EluBackward1``, which saves the result).

    Example::

        >>> F.elu(torch.tensor([-1., 1.]))
        tensor([-0.6321,  1.0000])
    """
    keep = {"alpha": alpha, "scale": 1, "input_scale": 1}

    def op(t):
        value = _elu_value(_floating(t, "elu_cpu"), alpha, 1, 1)
        return _unary(t, value, EluBackward1 if inplace else EluBackward0, keep, save_result=inplace)
    return _maybe_inplace(input, inplace, op)


def elu_(input, alpha=1.0):
    return elu(input, alpha, inplace=True)


def selu(input, inplace=False):
    """``scale * elu(x, alpha)`` with SELU's fixed constants (``grad_fn=<EluBackward0>``).

    Example::

        >>> F.selu(torch.tensor([-1., 1.]))
        tensor([-1.1113,  1.0507])
    """
    _check_tensor(input, "selu")
    keep = {"alpha": SELU_ALPHA, "scale": SELU_SCALE, "input_scale": 1}

    def op(t):
        value = _elu_value(_floating(t, "elu_cpu"), SELU_ALPHA, SELU_SCALE, 1)
        return _unary(t, value, EluBackward1 if inplace else EluBackward0, keep, save_result=inplace)
    return _maybe_inplace(input, inplace, op)


def selu_(input):
    return selu(input, inplace=True)


def celu(input, alpha=1.0, inplace=False):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`` (``grad_fn=<CeluBackward0>``).

    Example::

        >>> F.celu(torch.tensor([-1., 1.]), alpha=2.)
        tensor([-0.7869,  1.0000])
    """
    _check_tensor(input, "celu")
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")

    def op(t):
        value = _elu_value(_floating(t, "elu_cpu"), alpha, 1, 1.0 / alpha)
        return _unary(t, value, CeluBackward1 if inplace else CeluBackward0, {"alpha": alpha},
                      save_result=inplace)
    return _maybe_inplace(input, inplace, op)


def celu_(input, alpha=1.0):
    return celu(input, alpha, inplace=True)


# ---------------------------------------------------------------------------- mish
class MishBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)

    def backward(self, grad):
        # mish_backward: grad * (tanh(softplus(x)) + x * sigmoid(x) * (1 - tanh(softplus(x))^2))
        # (ATen's kernel: tanh(log1p(exp(x))), sigmoid as 1 / (1 + exp(-x))); in Tensor ops under
        # create_graph, as derivatives.yaml's infinitely_differentiable_mish_backward
        x = self.saved("self")
        if not grad_mode.is_grad_enabled() and grad._data.dtype == x._data.dtype == _F32:
            return _make(_mish_backward32(grad._data, x._data))
        ts = tanh(log1p(exp(x)))
        return grad * (ts + x * sigmoid(x) * (1.0 - ts * ts))


def _tanh_softplus32(x):
    """float32 ``tanh(log1p(exp(x)))`` in ATen's two forms: SLEEF's functions in vector steps (its
    tanh taken as the float64 one rounded), glibc's ``expf``, ``log1pf`` and ``tanhf`` on the rest."""
    return _fp.vectorized_loop32(lambda v: _TANH_ROUNDED(_fp.vector_log1p32(_fp.vector_exp32(v))),
                                 lambda v: _glibc32.tanhf(_glibc32.log1pf(_fp.exp(v))), x)


def _mish_backward32(dy, x):
    """ATen's float32 mish_backward kernel: ``dy * (t + x * s * (1 - t * t))`` with ``t =
    tanh(log1p(exp(x)))`` and ``s = 1 / (1 + exp(-x))``, SLEEF's exp in vector steps and glibc's on
    the rest; the compiler fuses ``1 - t * t`` and the sum after ``x * s`` into multiply-adds."""
    one = np.float32(1)
    s = one / (one + _exp_in_loop(-x))
    t = _tanh_softplus32(x)
    return dy * _fp.fma32(x * s, _fp.fma32(-t, t, one), t)


def mish(input, inplace=False):
    """``x * tanh(softplus(x))`` (``grad_fn=<MishBackward0>``).

    Example::

        >>> F.mish(torch.tensor([-1., 1.]))
        tensor([-0.3034,  0.8651])
    """
    _check_tensor(input, "mish")

    def op(t):
        d = _floating(t, "mish_cpu")
        if d.dtype == _F32:
            with np.errstate(over="ignore"):
                return _unary(t, d * _tanh_softplus32(d), MishBackward0)
        return _unary(t, d * _in64(lambda w: np.tanh(np.log1p(np.exp(w))), d), MishBackward0)
    return _maybe_inplace(input, inplace, op)


# ---------------------------------------------------------------------------- composites
def softsign(input):
    """``x / (1 + |x|)``, recorded as that arithmetic (``grad_fn=<DivBackward0>``).

    Example::

        >>> F.softsign(torch.tensor([-3., 1.]))
        tensor([-0.7500,  0.5000])
    """
    return div(input, input.abs() + 1)


def tanhshrink(input):
    """``x - tanh(x)``, recorded as that arithmetic (``grad_fn=<SubBackward0>``).

    Example::

        >>> F.tanhshrink(torch.tensor([-1., 2.]))
        tensor([-0.2384,  1.0360])
    """
    return sub(input, input.tanh())
