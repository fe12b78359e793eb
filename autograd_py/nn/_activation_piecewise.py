"""Piecewise activations with a dedicated backward in PyTorch: hardtanh (relu6), threshold,
hardswish, hardsigmoid, softshrink and hardshrink; and the helpers the other activation files share.

Each backward is ``element_wise``, so forward mode derives its JVP from it; the ones that only mask
the gradient are ops of their own (``*BackwardBackward0`` nodes), as in PyTorch, so a second
derivative is a zero rather than an error. float32 values follow ATen's CPU kernels as measured
against torch 2.13 (hardswish's ``x * clamp(x + 3, 0, 6) / 6`` in float32).
"""
from .. import _fp
from ..node import Node
from ..ops import inplace
from ..ops.base import Tensor, _make, grad_on, np, record
from ..ops.remainders import _NotImplemented
from ..ops.comparison import where
from ..ops.pointwise import clone

_F32 = np.dtype(np.float32)


def _check_tensor(input, name):
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")


def _floating(input, kernel):
    """The input's data; ``NotImplementedError`` as ATen's dispatch gives it for integer dtypes."""
    data = input._data
    if data.dtype.kind not in "fc":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{input.dtype.legacy_name[:-6]}\'')
    return data


_in64 = _fp.in_float64  # (the other activation files import it from here)


def _unary(input, value, node_cls, keep=None, save_result=False):
    """Wraps ``value`` (input-shaped data) and records ``node_cls`` saving the input (or the result)
    and the ``keep`` arguments."""
    out = _make(np.asarray(value).astype(input._data.dtype, copy=False))
    if grad_on(input):
        node = node_cls()
        for k, v in (keep or {}).items():
            setattr(node, k, v)
        if save_result:
            node.save_output(result=out)
        else:
            # in place, derivatives.yaml's original_self: a clone of the input made before the
            # write (its grad_fn shows as CloneBackward0)
            node.save(self=clone(input) if _original[0] else input)
        record(out, node, (input,))
    return out


_original = [False]  # True while an in-place op records its node


def _maybe_inplace(input, inplace_flag, op):
    if not inplace_flag:
        return op(input)
    _original[0] = True
    try:
        return inplace.apply(input, op)
    finally:
        _original[0] = False


# ---------------------------------------------------------------------------- hardtanh / relu6
class HardtanhBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)
    keeps = ("min_val", "max_val")

    def zero_where(self, x):
        return (x <= self.min_val) | (x >= self.max_val)  # hardtanh_backward: zero at the bounds and beyond

    def backward(self, grad):
        return _masked_grad(self, grad, HardtanhBackwardBackward0)


class _MaskedGradBackward(Node):
    """The node of a ``*_backward`` op that zeroes the gradient where the input is in a set: its
    gradient for ``grad_output`` is the same op, for ``self`` zeros (PyTorch records them so
    that a second derivative is a zero, not an error)."""
    element_wise, args = True, ("grad_output", "self")
    saves = ("self",)

    def backward(self, grad):
        g = _masked_grad(self, grad, type(self)) if self._next_functions[0][0] is not None else None
        x = self.saved("self")
        return g, (_make(np.zeros_like(x._data)) if self._next_functions[1][0] is not None else None)


def _masked_grad(node, grad, backward_cls):
    """``grad`` with zeros where ``node.zero_where(input)``, one op (``backward_cls`` its node)."""
    x = node.saved("self")
    out = _make(np.where(node.zero_where(x._data), grad._data.dtype.type(0), grad._data))
    if grad_on(grad, x):
        again = backward_cls()
        for k in node.keeps:
            setattr(again, k, getattr(node, k))
        again.save(self=x)
        record(out, again, (grad, x))
    return out


class HardtanhBackwardBackward0(_MaskedGradBackward):
    keeps = ("min_val", "max_val")
    zero_where = HardtanhBackward0.zero_where


def _hardtanh(input, min_val, max_val):
    d = input._data
    lo, hi = np.asarray(min_val).astype(d.dtype), np.asarray(max_val).astype(d.dtype)
    return _unary(input, np.where(d < lo, lo, np.where(d > hi, hi, d)), HardtanhBackward0,
                  {"min_val": min_val, "max_val": max_val})


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """``clamp(x, min_val, max_val)`` with a zero gradient outside (``grad_fn=<HardtanhBackward0>``).

    Args:
        input (Tensor): the input.
        min_val (float): the lower bound. Default: -1.
        max_val (float): the upper bound. Default: 1.
        inplace (bool): overwrite ``input``. Default: ``False``.

    Example::

        >>> F.hardtanh(torch.tensor([-2., 0.5, 3.]))
        tensor([-1.0000,  0.5000,  1.0000])
    """
    _check_tensor(input, "hardtanh")
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _maybe_inplace(input, inplace, lambda t: _hardtanh(t, min_val, max_val))


def hardtanh_(input, min_val=-1, max_val=1):  # (torch._C._nn.hardtanh_'s defaults are ints)
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input, inplace=False):
    """``min(max(0, x), 6)``, recorded as ``hardtanh(x, 0, 6)`` (``grad_fn=<HardtanhBackward0>``).

    Example::

        >>> F.relu6(torch.tensor([-1., 3., 8.]))
        tensor([0., 3., 6.])
    """
    _check_tensor(input, "relu6")
    return _maybe_inplace(input, inplace, lambda t: _hardtanh(t, 0, 6))


# ---------------------------------------------------------------------------- threshold
class ThresholdBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)
    keeps = ("threshold",)

    def zero_where(self, x):
        return x <= self.threshold

    def backward(self, grad):
        return _masked_grad(self, grad, ThresholdBackwardBackward0)


class ThresholdBackwardBackward0(_MaskedGradBackward):
    keeps = ("threshold",)
    zero_where = ThresholdBackward0.zero_where


class ThresholdBackward1(ThresholdBackward0):
    """threshold_'s node: it saves the input as it was before the write, as the out-of-place one."""


def threshold(input, threshold, value, inplace=False):
    """``x`` where ``x > threshold``, else ``value`` (``grad_fn=<ThresholdBackward0>``).

    Example::

        >>> F.threshold(torch.tensor([0.05, 0.5]), 0.1, 20.)
        tensor([20.0000,  0.5000])
    """
    _check_tensor(input, "threshold")
    node_cls = ThresholdBackward1 if inplace else ThresholdBackward0

    def op(t):
        d = t._data
        return _unary(t, np.where(d <= threshold, np.asarray(value).astype(d.dtype), d), node_cls,
                      {"threshold": threshold})
    return _maybe_inplace(input, inplace, op)


_threshold = threshold


def threshold_(input, threshold, value):
    return _threshold(input, threshold, value, inplace=True)


# ---------------------------------------------------------------------------- hardswish / hardsigmoid
class HardswishBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)

    def backward(self, grad):
        x = self.saved("self")
        return where(x < -3.0, 0.0, where(x <= 3.0, grad * (x / 3.0 + 0.5), grad))


class HardsigmoidBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)

    def backward(self, grad):
        # hardsigmoid_backward is one op without a derivative in PyTorch: differentiating it again
        # raises, so under create_graph its result gets the NotImplemented node
        x = self.saved("self")
        g = grad._data
        # ATen's one_sixth is 1.0f / 6.0f, float32's sixth even in a float64 kernel
        sixth = g.dtype.type(np.float32(1.0) / np.float32(6.0))
        out = _make(np.where((x._data > -3) & (x._data < 3), g * sixth, g.dtype.type(0)))
        if grad_on(grad, x):
            node = _NotImplemented()
            node.op = "hardsigmoid_backward"
            record(out, node, (grad, x))
        return out


def _relu6_shift(d):
    three, six = d.dtype.type(3), d.dtype.type(6)
    return np.minimum(np.maximum(d + three, d.dtype.type(0)), six), six


def hardswish(input, inplace=False):
    """``x * relu6(x + 3) / 6`` (``grad_fn=<HardswishBackward0>``).

    Example::

        >>> F.hardswish(torch.tensor([-4., 1., 4.]))
        tensor([-0.0000,  0.6667,  4.0000])
    """
    _check_tensor(input, "hardswish")

    def op(t):
        s, six = _relu6_shift(_floating(t, "hardswish_cpu"))
        return _unary(t, t._data * s / six, HardswishBackward0)  # ATen's order: x * (...) / 6
    return _maybe_inplace(input, inplace, op)


def hardsigmoid(input, inplace=False):
    """``relu6(x + 3) / 6`` (``grad_fn=<HardsigmoidBackward0>``).

    Example::

        >>> F.hardsigmoid(torch.tensor([-4., 0., 1.]))
        tensor([0.0000, 0.5000, 0.6667])
    """
    _check_tensor(input, "hardsigmoid")

    def op(t):
        s, six = _relu6_shift(_floating(t, "hardsigmoid_cpu"))
        return _unary(t, s / six, HardsigmoidBackward0)
    return _maybe_inplace(input, inplace, op)


# ---------------------------------------------------------------------------- softshrink / hardshrink
class SoftshrinkBackward0(Node):
    element_wise, args = True, ("self",)
    saves = ("self",)
    keeps = ("lambd",)

    def zero_where(self, x):
        return (x >= -self.lambd) & (x <= self.lambd)

    def backward(self, grad):
        return _masked_grad(self, grad, self.again)


class SoftshrinkBackwardBackward0(_MaskedGradBackward):
    keeps = ("lambd",)
    zero_where = SoftshrinkBackward0.zero_where


class HardshrinkBackwardBackward0(SoftshrinkBackwardBackward0):
    pass


class HardshrinkBackward0(SoftshrinkBackward0):
    again = HardshrinkBackwardBackward0


SoftshrinkBackward0.again = SoftshrinkBackwardBackward0


def softshrink(input, lambd=0.5):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0
    (``grad_fn=<SoftshrinkBackward0>``).

    Example::

        >>> F.softshrink(torch.tensor([-1., 0.2, 2.]))
        tensor([-0.5000,  0.0000,  1.5000])
    """
    _check_tensor(input, "softshrink")
    d = _floating(input, "softshrink_check")
    if lambd < 0:
        raise RuntimeError(f"lambda must be in range [0, 3.40282e+38] for input dtype "
                           f"{input.dtype.legacy_name[:-6]}, but found {lambd:g}")
    lam = d.dtype.type(lambd)
    # ATen's zero is x * 0: -0.0 for a small negative x
    value = np.where(d > lam, d - lam, np.where(d < -lam, d + lam, d * d.dtype.type(0)))
    return _unary(input, value, SoftshrinkBackward0, {"lambd": lambd})


def hardshrink(input, lambd=0.5):
    """``x`` where ``|x| > lambd``, else 0 (``grad_fn=<HardshrinkBackward0>``).

    Example::

        >>> F.hardshrink(torch.tensor([-1., 0.2, 2.]))
        tensor([-1.,  0.,  2.])
    """
    _check_tensor(input, "hardshrink")
    d = _floating(input, "hardshrink_cpu")
    lam = d.dtype.type(lambd)
    return _unary(input, np.where((d >= -lam) & (d <= lam), d.dtype.type(0), d), HardshrinkBackward0,
                  {"lambd": lambd})
