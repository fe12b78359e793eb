"""Comparisons and selections: clamp, maximum, minimum and where (differentiable, with PyTorch's
gradients at ties and bounds), and the comparison and logical ops, which have no gradient.
floor_divide, remainder and fmod, built on the same broadcasting comparison helper, are in
``remainders.py``."""
from ..node import Node
from .base import Tensor, _make, grad_on, np, operands, record, result_np_dtype, written_in_place

# ---------------------------------------------------------------------------- clamp, max/min, where
class ClampBackward1(Node):
    element_wise = True
    args = ("self",)
    saves = ("self",)
    keeps = ("max", "min")

    def backward(self, grad):
        # clamp_backward: gradient 1 at the bounds themselves, 0 (not grad * 0) outside them.
        x, lo, hi = self.saved("self"), self.min, self.max
        if lo is not None and hi is not None:
            return where((x >= lo) & (x <= hi), grad, 0.0)
        return where(x >= lo, grad, 0.0) if lo is not None else where(x <= hi, grad, 0.0)


class ClampMinBackward0(ClampBackward1):
    keeps = ("min",)


class ClampMaxBackward0(ClampBackward1):
    keeps = ("max",)


class ClampBackward0(Node):
    """Tensor bounds: each element's gradient goes to whichever of self, min, max it was taken from."""

    def jvp(self, tangents, inputs, result):
        # clamp_jvp: unlike the backward, a tie with a lone bound takes the bound's tangent
        (xt, lo_t, hi_t), (x, lo, hi) = _zeros_for_none(tangents, inputs, result), inputs
        if lo is not None and hi is not None:
            return where(lo > hi, hi_t, where(x < lo, lo_t, where(x > hi, hi_t, xt)))
        if lo is not None:
            return where(x > lo, xt, lo_t)
        return where(x < hi, xt, hi_t)

    def backward(self, grad):
        x, lo, hi = self.saved("self"), self.saved("min"), self.saved("max")
        needs = [fn is not None for fn, _ in self._next_functions]
        if lo is not None and hi is not None:
            # Where min > max the result is max, as in PyTorch's clamp_backward_min_max.
            gx = where((x >= lo) & (x <= hi), grad, 0.0) if needs[0] else None
            glo = where((x < lo) & (lo < hi), grad, 0.0) if needs[1] else None
            ghi = where((x > hi) | (hi < lo), grad, 0.0) if needs[2] else None
        elif lo is not None:
            gx = where(x >= lo, grad, 0.0) if needs[0] else None
            glo, ghi = (where(x < lo, grad, 0.0) if needs[1] else None), None
        else:
            gx = where(x <= hi, grad, 0.0) if needs[0] else None
            glo, ghi = None, (where(x > hi, grad, 0.0) if needs[2] else None)
        return gx, glo, ghi


class ClampMinBackward1(Node):
    """clamp_min.Tensor: a tie goes to self, in the backward and in the tangent alike."""
    saves = ("min", "self")
    ge = True

    def jvp(self, tangents, inputs, result):
        # where(self_p >= min_p, self_t, min_t)
        (xt, bt), (x, b) = _zeros_for_none(tangents, inputs, result), inputs
        return where(x >= b if self.ge else x <= b, xt, bt)

    def backward(self, grad):
        x, b = self.saved("self"), self.saved("min" if self.ge else "max")
        needs = [fn is not None for fn, _ in self._next_functions]
        keep = (x >= b if self.ge else x <= b) if needs[0] or needs[1] else None
        return (where(keep, grad, 0.0) if needs[0] else None), (where(keep, 0.0, grad) if needs[1] else None)


class ClampMaxBackward1(ClampMinBackward1):
    saves = ("max", "self")
    ge = False


def _first_at_ties(out, first):
    """PyTorch's max/min kernels keep their first operand at a tie (std::max(a, b) is b only when
    a < b), so clamping -0.0 at 0 leaves -0.0; which one NumPy keeps is its own business."""
    out = np.asarray(out)  # NumPy hands back a scalar for 0-d operands
    if out.dtype.kind == "f":
        np.copyto(out, first, where=out == first)
    return out


def _clamp_tensor(input, min, max):
    lo = min if min is None or isinstance(min, Tensor) else _make(np.asarray(min, input._data.dtype))
    hi = max if max is None or isinstance(max, Tensor) else _make(np.asarray(max, input._data.dtype))
    data = input._data.astype(result_np_dtype(input, *(b for b in (lo, hi) if b is not None)), copy=False)
    if lo is not None:
        data = _first_at_ties(np.maximum(data, lo._data.astype(data.dtype, copy=False)), data)
    if hi is not None:
        data = _first_at_ties(np.minimum(data, hi._data.astype(data.dtype, copy=False)), data)
    out = _make(data)
    if grad_on(input, lo, hi):
        node = ClampBackward0()
        node.save(self=input, min=lo, max=hi)
        record(out, node, (input, lo, hi))
    return out


def _clamp_one_tensor(input, bound, node_cls):
    """clamp_min/clamp_max with a tensor bound: one node with the two inputs (not clamp's three)."""
    data = input._data.astype(result_np_dtype(input, bound), copy=False)
    fn = np.maximum if node_cls is ClampMinBackward1 else np.minimum
    out = _make(_first_at_ties(fn(data, bound._data.astype(data.dtype, copy=False)), data))
    if grad_on(input, bound):
        node = node_cls()
        node.save(**{"self": input, "min" if node.ge else "max": bound})
        record(out, node, (input, bound))
    return out


def clamp_min(input, min):
    if isinstance(min, Tensor):
        return _clamp_one_tensor(input, min, ClampMinBackward1)
    return clamp(input, min, None, ClampMinBackward0)


def clamp_max(input, max):
    if isinstance(max, Tensor):
        return _clamp_one_tensor(input, max, ClampMaxBackward1)
    return clamp(input, None, max, ClampMaxBackward0)


def clamp(input, min=None, max=None, _node=ClampBackward1):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        return _clamp_tensor(input, min, max)
    # Float bounds make an integer input float, as PyTorch's type promotion does.
    dt = result_np_dtype(input, *(v for v in (min, max) if v is not None))
    x = input._data.astype(dt, copy=False)
    data = np.clip(x, min, max).astype(dt, copy=False)
    if 0 in (min, max) and (min is None or max is None or min <= max):
        data = _first_at_ties(data, x)  # only a zero bound can tie with a differently signed zero
    out = _make(data)
    if grad_on(input):
        node = _node()
        node.min, node.max = min, max
        node.save(self=input)
        record(out, node, (input,))
    return out


def _zeros_for_none(tangents, inputs, result):
    """The tangents, a zero tensor for each tensor input without one (PyTorch's zero tangent), in the
    result's dtype: a bool or integer operand (``mask.minimum(x)``) has a float zero tangent."""
    return [_make(np.zeros(x._data.shape, result._data.dtype)) if t is None and isinstance(x, Tensor) else t
            for t, x in zip(tangents, inputs)]


def _pick_jvp(tangents, inputs, result, a_wins):
    """``other_t + where(self == other, 0.5, a_wins) * (self_t - other_t)``: a tie takes the mean."""
    at, bt = _zeros_for_none(tangents, inputs, result)
    a, b = operands(*inputs)
    share = _make(np.where(a == b, 0.5, a_wins(a, b)).astype(result._data.dtype))
    return bt + share * (at - bt)


class MaximumBackward0(Node):
    saves = ("other", "self")

    def jvp(self, tangents, inputs, result):
        return _pick_jvp(tangents, inputs, result, np.greater)

    def backward(self, grad):
        a, b = self.saved("self"), self.saved("other")
        return _pick_backward(grad, a, b, a < b, a > b)


class MinimumBackward0(Node):
    saves = ("other", "self")

    def jvp(self, tangents, inputs, result):
        return _pick_jvp(tangents, inputs, result, np.less)

    def backward(self, grad):
        a, b = self.saved("self"), self.saved("other")
        return _pick_backward(grad, a, b, a > b, a < b)


def _pick_backward(grad, a, b, a_loses, b_loses):
    """derivatives.yaml's ``where(self == other, grad / 2, grad).masked_fill_(loses, 0)``: ties split
    the gradient, and where a NaN makes both comparisons false, both inputs receive all of it."""
    from .advanced_indexing import masked_fill
    shared = where(a == b, grad / 2, grad)
    return written_in_place(masked_fill(shared, a_loses, 0)), written_in_place(masked_fill(shared, b_loses, 0))


def maximum(input, other):
    a, b = operands(input, other)
    out = _make(_first_at_ties(np.maximum(a, b), a))
    if grad_on(input, other):
        node = MaximumBackward0()
        node.save(self=input, other=other)
        record(out, node, (input, other))
    return out


def minimum(input, other):
    a, b = operands(input, other)
    out = _make(_first_at_ties(np.minimum(a, b), a))
    if grad_on(input, other):
        node = MinimumBackward0()
        node.save(self=input, other=other)
        record(out, node, (input, other))
    return out


class WhereBackward0(Node):
    saves = ("condition",)

    def jvp(self, tangents, inputs, result):
        ta, tb = tangents  # a number, or a tensor without a tangent, contributes 0
        return where(self.condition, 0.0 if ta is None else ta, 0.0 if tb is None else tb)

    def backward(self, grad):
        cond = self.saved("condition")
        ga = where(cond, grad, 0.0) if self._next_functions[0][0] is not None else None
        gb = where(cond, 0.0, grad) if self._next_functions[1][0] is not None else None
        return ga, gb


def _float_copies(input, other):
    """PyTorch's where with a number casts the tensor to the result type with a recorded ``.to()``
    first, so an integer tensor with history (``int_t[...] = float_t``) reaches it through
    ToCopyBackward0; two tensors are cast inside the kernel, unrecorded."""
    t = input if isinstance(input, Tensor) else other
    if isinstance(input, Tensor) == isinstance(other, Tensor) or not t._requires_grad or t._data.dtype.kind in "fc":
        return input, other
    dt = result_np_dtype(input, other)
    if dt.kind != "f":
        return input, other
    from .pointwise import to_dtype
    return (to_dtype(t, dt), other) if t is input else (input, to_dtype(t, dt))


def where(condition, input=None, other=None):
    if input is None and other is None:
        from .advanced_indexing import nonzero
        return nonzero(condition, as_tuple=True)
    cond = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    input, other = _float_copies(input, other)
    if isinstance(input, Tensor):
        a, b = operands(input, other)
    else:
        if not isinstance(other, Tensor):  # two numbers: the result has their own type
            other = _make(np.asarray(other, dtype=result_np_dtype(input, other)))
        b, a = operands(other, input)
    out = _make(np.where(cond.astype(bool, copy=False), a, b))
    if grad_on(input, other):
        node = WhereBackward0()
        node.condition = condition if isinstance(condition, Tensor) else _make(cond)
        node.save(condition=node.condition)
        record(out, node, (input, other))
    return out


# ---------------------------------------------------------------------------- no gradient
def _compare(fn):
    def op(input, other):
        a, b = operands(input, other) if isinstance(input, Tensor) else operands(other, input)[::-1]
        return _make(fn(a, b))
    op.__name__ = fn.__name__
    return op


eq = _compare(np.equal)
ne = _compare(np.not_equal)
lt = _compare(np.less)
le = _compare(np.less_equal)
gt = _compare(np.greater)
ge = _compare(np.greater_equal)
logical_and = _compare(np.logical_and)
logical_or = _compare(np.logical_or)
logical_xor = _compare(np.logical_xor)
bitwise_and = _compare(np.bitwise_and)
bitwise_or = _compare(np.bitwise_or)
bitwise_xor = _compare(np.bitwise_xor)


def logical_not(input):
    return _make(np.logical_not(input._data))


def bitwise_not(input):
    return _make(np.invert(input._data))


def isnan(input):
    return _make(np.isnan(input._data))


def isinf(input):
    return _make(np.isinf(input._data))


def isfinite(input):
    return _make(np.isfinite(input._data))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.allclose(input._data, other._data, rtol, atol, equal_nan))


def equal(input, other):
    return input._data.shape == other._data.shape and bool(np.array_equal(input._data, other._data))
