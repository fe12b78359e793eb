"""fmax, fmin and atan2: binary elementwise functions of two tensors, each with derivatives.yaml's
backward and ``result:`` formulas (a missing tangent counts as PyTorch's efficient zero tensor)."""
from ..node import Node
from .base import Tensor, _make, float_data, grad_on, np, operands, record


def _tensor_other(name, other):
    """PyTorch's argument parser takes only a tensor here (``torch.fmax(x, 2.0)`` raises)."""
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")


def _zero_filled(tangents, inputs, result):
    """The tangents with a zero tensor for each missing one (these formulas always read both)."""
    from ..forward_mode import formula_tangents
    filled = formula_tangents(tangents, inputs, result)
    if any(t is None for t in filled):
        from . import zerotensor
        filled = [t if t is not None else zerotensor.mark(_make(np.zeros(x._data.shape, result._data.dtype)))
                  for t, x in zip(filled, inputs)]
    return filled


# ---------------------------------------------------------------------------- fmax / fmin
class FmaxBackward0(Node):
    saves = ("other", "self")
    picks = staticmethod(lambda a, b: a >= b)  # backward's test for self; the tangent's is strict
    strict = staticmethod(lambda a, b: a > b)

    def backward(self, grad):
        # self: grad.masked_fill((self >= other).logical_or_(other.isnan()).logical_not_(), 0)
        # other: grad.masked_fill((self >= other).logical_or_(other.isnan()), 0)
        from .comparison import isnan, logical_not, logical_or
        from .advanced_indexing import masked_fill
        a, b = self.saved("self"), self.saved("other")
        kept = logical_or(self.picks(a, b), isnan(b))
        ga = masked_fill(grad, logical_not(kept), 0) if self._next_functions[0][0] is not None else None
        gb = masked_fill(grad, kept, 0) if self._next_functions[1][0] is not None else None
        return ga, gb

    def jvp(self, tangents, inputs, result):
        # other_t + (self_p > other_p).logical_or_(other_p.isnan()) * (self_t - other_t)   (fmin: <=)
        from .comparison import isnan, logical_or
        (at, bt), (a, b) = _zero_filled(tangents, inputs, result), inputs
        return bt + logical_or(self.strict(a, b), isnan(b)) * (at - bt)


class FminBackward0(FmaxBackward0):
    picks = strict = staticmethod(lambda a, b: a <= b)


def _pick(input, other, name, np_fn, node_cls):
    _tensor_other(name, other)
    a, b = operands(input, other)
    out = _make(np.asarray(np_fn(a, b)))
    if out._data.dtype.kind == "f" and grad_on(input, other):
        node = node_cls()
        node.save(self=input, other=other)
        record(out, node, (input, other))
    return out


def fmax(input, other):
    """The elementwise maximum, ignoring NaN: a NaN loses to a number (both NaN give NaN).

    Example::

        >>> torch.fmax(torch.tensor([1., float('nan'), 3.]), torch.tensor([2., 0., float('nan')]))
        tensor([2., 0., 3.])
    """
    return _pick(input, other, "fmax", np.fmax, FmaxBackward0)


def fmin(input, other):
    """The elementwise minimum, ignoring NaN (see :func:`fmax`)."""
    return _pick(input, other, "fmin", np.fmin, FminBackward0)


# ---------------------------------------------------------------------------- atan2
class Atan2Backward0(Node):
    saves = ("other", "self")

    def backward(self, grad):
        # atan2_backward: recip = (self * self + other * other).reciprocal();
        # grad * other * recip, grad * -self * recip
        from .pointwise import reciprocal
        a, b = self.saved("self"), self.saved("other")
        recip = reciprocal(a * a + b * b)
        ga = grad * b * recip if self._next_functions[0][0] is not None else None
        gb = grad * -a * recip if self._next_functions[1][0] is not None else None
        return ga, gb

    def jvp(self, tangents, inputs, result):
        # (-self_p * other_t + other_p * self_t) / (self_p.pow(2) + other_p.pow(2))
        from .pointwise import pow
        (at, bt), (a, b) = _zero_filled(tangents, inputs, result), inputs
        return (-a * bt + b * at) / (pow(a, 2) + pow(b, 2))


def atan2(input, other):
    """The angle of the point ``(other, input)``, in radians: ``atan(input / other)`` in the right quadrant.

    Example::

        >>> torch.atan2(torch.tensor([1., -1.]), torch.tensor([0., 2.]))
        tensor([ 1.5708, -0.4636])
    """
    _tensor_other("atan2", other)
    a, b = operands(input, other)
    if a.dtype.kind != "f":  # integers and bools give the default float dtype
        a, b = float_data(_make(a)), float_data(_make(b))
    out = _make(np.asarray(np.arctan2(a, b)))
    if grad_on(input, other):
        node = Atan2Backward0()
        node.save(self=input, other=other)
        record(out, node, (input, other))
    return out


arctan2 = atan2
