"""Activation primitives that PyTorch gives a dedicated backward (so ``grad_fn`` shows it).

Each backward is written in Tensor ops, so ``create_graph=True`` differentiates it again.
"""
import math

from .. import _fp, _glibc32, grad_mode
from ..node import Node
from ..ops import inplace
from ..ops.base import _make, float_data, grad_on, np, record
from ..ops.comparison import where
from ..creation import full_like
from ..ops.math_fns import erf
from ..ops.pointwise import add_scalar, empty_preserving, exp, sigmoid, tanh

_SQRT_2 = math.sqrt(2.0)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_np_erf = np.frompyfunc(math.erf, 1, 1)


# ---------------------------------------------------------------------------- leaky_relu
class LeakyReluBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)
    keeps = ("negative_slope",)

    def backward(self, grad):
        x = self.saved("self")
        return where(x > 0, grad, grad * self.negative_slope)


class LeakyReluBackward1(Node):
    """The in-place form saves its result; the sign of the result is the sign of the input."""
    element_wise, args = True, ("self",)
    saves = ("result",)
    keeps = ("negative_slope",)

    def backward(self, grad):
        y = self.saved("result")
        return where(y > 0, grad, grad * self.negative_slope)


def _np_leaky_relu(d, slope):
    return np.where(d > 0, d, d * np.asarray(slope, dtype=d.dtype))


def leaky_relu(input, negative_slope=0.01):
    data = float_data(input)
    out = _make(_np_leaky_relu(data, negative_slope))
    if grad_on(input):
        node = LeakyReluBackward0()
        node.negative_slope = negative_slope
        node.save(self=input)
        record(out, node, (input,))
    return out


def leaky_relu_(input, negative_slope=0.01):
    def op(old):
        out = _make(_np_leaky_relu(old._data, negative_slope))
        if grad_on(old):
            node = LeakyReluBackward1()
            node.negative_slope = negative_slope
            node.save_output(result=out)
            record(out, node, (old,))
        return out
    return inplace.apply(input, op)


# ---------------------------------------------------------------------------- elu
class EluBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)
    keeps = ("alpha", "input_scale", "scale")
    input_scale = scale = 1

    def backward(self, grad):
        x = self.saved("self")
        return where(x > 0, grad, grad * (exp(x) * self.alpha))


def elu(input, alpha=1.0):
    data = float_data(input)
    value = np.where(data > 0, data, np.expm1(data) * np.asarray(alpha, dtype=data.dtype))
    out = _make(value.astype(data.dtype, copy=False))
    if grad_on(input):
        node = EluBackward0()
        node.alpha = alpha
        node.save(self=input)
        record(out, node, (input,))
    return out


# ---------------------------------------------------------------------------- gelu
class GeluBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)
    keeps = ("approximate",)

    def backward(self, grad):
        x = self.saved("self")
        if self.approximate == "tanh" and not grad_mode.is_grad_enabled() and (
                grad._data.dtype == x._data.dtype == np.float32):
            return _make(_gelu_tanh_backward32(grad._data, x._data))
        if self.approximate == "tanh":
            inner = (x + x * x * x * 0.044715) * _SQRT_2_OVER_PI
            t = tanh(inner)
            d_inner = (x * x * (3 * 0.044715) + 1) * _SQRT_2_OVER_PI
            return grad * ((t + 1) * 0.5 + x * 0.5 * (1 - t * t) * d_inner)
        cdf = (erf(x * (1 / _SQRT_2)) + 1) * 0.5
        pdf = exp(x * x * -0.5) * _INV_SQRT_2PI
        return grad * (cdf + x * pdf)


def gelu(input, approximate="none"):
    """``x * Phi(x)``, ``Phi`` the standard normal CDF, or its tanh approximation (``grad_fn=<GeluBackward0>``).

    Args:
        input (Tensor): the input.
        approximate (str, optional): ``'none'`` (default, exact erf) or ``'tanh'``.

    Example::

        >>> F.gelu(torch.tensor([-1., 0., 1.]))
        tensor([-0.1587,  0.0000,  0.8413])
    """
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    data = float_data(input)
    wide = data.astype(np.float64)
    if approximate == "tanh" and data.dtype == np.float32:
        half, one = np.float32(0.5), np.float32(1)
        value = half * data * (one + _gelu_tanh32(data))
    elif approximate == "tanh":
        value = 0.5 * wide * (1 + np.tanh(_SQRT_2_OVER_PI * (wide + 0.044715 * wide ** 3)))
    else:
        value = 0.5 * wide * (1 + _np_erf(wide / _SQRT_2).astype(np.float64))
    if data.flags.c_contiguous:
        out = _make(value.astype(data.dtype))
    else:  # laid out as the input, as TensorIterator does (NumPy's float64 copy may reorder dims)
        out = empty_preserving(data, data.dtype)
        out[...] = value
        out = _make(out)
    if grad_on(input):
        node = GeluBackward0()
        node.approximate = approximate
        node.save(self=input)
        record(out, node, (input,))
    return out


_GELU_BETA32, _GELU_KAPPA32 = np.float32(_SQRT_2_OVER_PI), np.float32(0.044715)
_TANH_ROUNDED = _fp.via_float64(np.tanh)


def _gelu_tanh32(x):
    """``tanh(beta * (x + kappa * x**3))`` as ATen's float32 GELU kernels compute it: the compiler
    fuses ``x + kappa * x**3`` into a multiply-add; tanh is SLEEF's in vector steps (taken as the
    float64 one rounded), glibc's ``tanhf`` on the rest."""
    inner = _GELU_BETA32 * _fp.fma32(_GELU_KAPPA32, x * x * x, x)
    return _fp.vectorized_loop32(_TANH_ROUNDED, _glibc32.tanhf, inner)


def _gelu_tanh_backward32(dy, x):
    """ATen's float32 gelu_backward kernel for the tanh form: ``dy * (0.5 * (1 + t) + 0.5 * x *
    (1 - t * t) * beta * (1 + 3 * kappa * x**2))``, ``1 - t * t`` and ``1 + 3 * kappa * x**2``
    fused into multiply-adds."""
    half, one = np.float32(0.5), np.float32(1)
    t = _gelu_tanh32(x)
    d_inner = _GELU_BETA32 * _fp.fma32(np.float32(3) * _GELU_KAPPA32, x * x, one)
    return dy * (half * (one + t) + half * x * _fp.fma32(-t, t, one) * d_inner)


# ---------------------------------------------------------------------------- silu / softplus
class SiluBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)

    def backward(self, grad):
        x = self.saved("self")
        if grad_mode.is_grad_enabled() or grad._data.dtype != x._data.dtype:
            # derivatives.yaml: infinitely_differentiable_silu_backward, in composite ops; C++'s
            # 1.0 - s fills a tensor and subtracts (SubBackward0), 1.0 + t adds a Scalar (AddBackward1)
            s = sigmoid(x)
            return grad * s * add_scalar(x * (full_like(s, 1.0) - s), 1.0)
        return _make(_silu_backward_kernel(grad._data, x._data))  # silu_backward's kernel


def _silu_kernel(x):
    """ATen's ``x / (1 + exp(-x))``, float32 in cpu_kernel_vec's two forms (``_fp.vectorized_loop32``)."""
    one = x.dtype.type(1)
    with np.errstate(over="ignore"):
        if x.dtype == np.float32:
            return _fp.vectorized_loop32(lambda v: v / (one + _fp.vector_exp32(-v)), lambda v: v / (one + _fp.exp(-v)), x)
        return x / (one + np.exp(-x))


def _silu_backward_kernel(dy, x):
    """ATen's ``dy * s * (1 + x * (1 - s))`` with ``s = 1 / (1 + exp(-x))``, its ``1 + x * (...)`` one
    fused multiply-add (GCC contracts the vector form too): measured against torch, bit for bit."""
    one = x.dtype.type(1)

    def kernel(exp):
        def run(dy, x):
            s = one / (one + exp(-x))
            return dy * s * _fp.fma(x, one - s, np.full_like(x, one))
        return run

    with np.errstate(over="ignore"):
        if x.dtype == np.float32:
            return _fp.vectorized_loop32(kernel(_fp.vector_exp32), kernel(_fp.exp), dy, x)
        return kernel(np.exp)(dy, x)


def silu(input):
    data = float_data(input)
    out = _make(_silu_kernel(data))
    if grad_on(input):
        node = SiluBackward0()
        node.save(self=input)
        record(out, node, (input,))
    return out


class SoftplusBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)
    keeps = ("beta", "threshold")

    def backward(self, grad):
        x = self.saved("self")
        if grad_mode.is_grad_enabled() or grad._data.dtype != x._data.dtype:
            bx = x * self.beta  # recorded for a second derivative, in Tensor ops
            return where(bx > self.threshold, grad, grad * sigmoid(bx))
        return _make(_softplus_backward_kernel(grad._data, x._data, self.beta, self.threshold))


def _exp_in_loop(x):
    """The exp of a cpu_kernel_vec kernel: SLEEF's in its vector steps for float32 (``_fp``)."""
    if x.dtype == np.float32:
        return _fp.vectorized_loop32(_fp.vector_exp32, _fp.exp, x)
    return np.exp(x)


def _softplus_backward_kernel(g, x, beta, threshold):
    """ATen's softplus_backward: ``g * z / (z + 1)`` with ``z = exp(beta * x)``, ``g`` past the threshold."""
    bx = x * np.asarray(beta, dtype=x.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        z = _exp_in_loop(bx)
        return np.where(bx > threshold, g, (g * z) / (z + x.dtype.type(1))).astype(x.dtype, copy=False)


def softplus(input, beta=1.0, threshold=20.0):
    """``log(1 + exp(beta * x)) / beta``, and ``x`` itself where ``beta * x > threshold``
    (``grad_fn=<SoftplusBackward0>``).

    Example::

        >>> F.softplus(torch.tensor([0., 30.]))
        tensor([ 0.6931, 30.0000])
    """
    data = float_data(input)
    b = np.asarray(beta, dtype=data.dtype)
    bx = data * b
    # ATen's kernel: log1p(exp(beta * x)) / beta, x itself past the threshold (where exp could overflow)
    with np.errstate(over="ignore", invalid="ignore"):
        if data.dtype == np.float32:  # SLEEF's exp and log1p in vector steps, glibc's expf and
            # log1pf on the rest (_fp.exp, _glibc32.log1pf)
            smooth = _fp.vectorized_loop32(lambda v: _fp.vector_log1p32(_fp.vector_exp32(v)),
                                           lambda v: _glibc32.log1pf(_fp.exp(v)), bx) / b
        else:
            smooth = np.log1p(np.exp(bx)) / b
    out = _make(np.where(bx > threshold, data, smooth).astype(data.dtype, copy=False))
    if grad_on(input):
        node = SoftplusBackward0()
        node.beta, node.threshold = beta, threshold
        node.save(self=input)
        record(out, node, (input,))
    return out


# ---------------------------------------------------------------------------- constant padding
class ConstantPadNdBackward0(Node):
    def backward(self, grad):
        return constant_pad_nd(grad, [-p for p in self.pad], 0.0)

    def jvp(self, tangents, inputs, result):
        return constant_pad_nd(tangents[0], self.pad, 0.0)


def constant_pad_nd(input, pad, value=0.0):
    """Pads (or, for negative amounts, crops) the last ``len(pad) // 2`` dims of ``input``.

    ``pad`` lists (left, right) amounts starting from the last dimension, as ``F.pad`` takes them.
    """
    pad = [int(p) for p in pad]
    nd = input._data.ndim
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > nd:
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension "
                           f"but got padding length {len(pad)} and input of dimension {nd}")
    data = input._data
    widths = [(0, 0)] * nd
    crop = [slice(None)] * nd
    for i in range(len(pad) // 2):
        d = nd - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        size = data.shape[d]
        if size + min(left, 0) + min(right, 0) < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        widths[d] = (max(left, 0), max(right, 0))
        crop[d] = slice(-min(left, 0), size + min(right, 0))
    cropped = data[tuple(crop)]
    out = _make(np.pad(cropped, widths, mode="constant", constant_values=value))
    if grad_on(input):
        node = ConstantPadNdBackward0()
        node.pad = pad
        record(out, node, (input,))
    return out
