"""addcmul, addcdiv and lerp: three-input pointwise ops, each one node with one formula per input,
as in PyTorch (not a chain of add and mul nodes)."""
from .. import _fp
from ..forward_mode import formula_tangents, linked
from ..node import Node
from .base import Tensor, _make, check_broadcast, grad_on, np, record, result_np_dtype
from .pointwise import div, mul_scalar, sub


def _arrays(tensors, dtype):
    shape = ()
    for t in tensors:
        check_broadcast(shape, t._data.shape)
        shape = np.broadcast_shapes(shape, t._data.shape)
    return [t._data.astype(dtype, copy=False) for t in tensors]


# C++'s names for dtypes, which PyTorch's dtype checks print
_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
              "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def _jvp_sum(parts):
    """The terms of a tangent formula that are there (a missing tangent's term is zero)."""
    out = None
    for part in parts:
        if part is not None:
            out = part if out is None else out + part
    return out


def _times(t, value):
    """derivatives.yaml's ``maybe_multiply(t, value)``."""
    return t if value == 1 else mul_scalar(t, value)


def _terms(first, *rest):
    """``first`` plus or minus (``(sign, term)``) each term that is there, left to right, as the
    formula adds them; a term is None only when its tangent is missing and no graph shows."""
    total = first
    for sign, term in rest:
        if term is not None:
            total = (term if sign > 0 else -term) if total is None else total + term if sign > 0 else total - term
    return total


class AddcmulBackward0(Node):
    saves = ("tensor1", "tensor2")
    keeps = ("value",)

    def jvp(self, tangents, inputs, result):
        # self_t + maybe_multiply(tensor1_t * tensor2_p, value) + maybe_multiply(tensor2_t * tensor1_p, value)
        (t0, t1, t2), (_, a, b), v = formula_tangents(tangents, inputs, result), inputs, self.value
        return _terms(t0, (1, None if t1 is None else _times(t1 * b, v)), (1, None if t2 is None else _times(t2 * a, v)))

    def backward(self, grad):
        needs = [fn is not None for fn, _ in self._next_functions]
        g1 = grad * mul_scalar(self.saved("tensor2"), self.value) if needs[1] else None
        g2 = grad * mul_scalar(self.saved("tensor1"), self.value) if needs[2] else None
        return (grad if needs[0] else None), g1, g2


class AddcdivBackward0(Node):
    saves = ("tensor1", "tensor2")
    keeps = ("value",)

    def jvp(self, tangents, inputs, result):
        # self_t + maybe_multiply(tensor1_t / tensor2_p, value)
        #        - maybe_multiply(tensor2_t * (tensor1_p / tensor2_p) / tensor2_p, value)
        (t0, t1, t2), (_, a, b), v = formula_tangents(tangents, inputs, result), inputs, self.value
        return _terms(t0, (1, None if t1 is None else _times(t1 / b, v)),
                      (-1, None if t2 is None else _times(t2 * (a / b) / b, v)))

    def backward(self, grad):
        needs = [fn is not None for fn, _ in self._next_functions]
        t2 = self.saved("tensor2") if needs[1] or needs[2] else None
        g1 = grad * div(_make(np.full(t2._data.shape, self.value, t2._data.dtype)), t2) if needs[1] else None
        g2 = -grad * (mul_scalar(self.saved("tensor1"), self.value) / (t2 * t2)) if needs[2] else None
        return (grad if needs[0] else None), g1, g2


def _addc(input, tensor1, tensor2, value, np_op, node_cls):
    dtype = result_np_dtype(input, tensor1, tensor2)
    a, b, c = _arrays((input, tensor1, tensor2), dtype)
    v = dtype.type(value)  # an integer result truncates a float value, as PyTorch's kernel does
    if np_op is np.multiply and (dtype == np.float32 or dtype == np.float64):
        res = _fp.fma(v * b, c, a)  # addcmul's kernel fuses its last multiply-add
    else:
        res = a + np_op(v * b, c)
    out = _make(np.asarray(res).astype(dtype, copy=False))
    if grad_on(input, tensor1, tensor2):
        node = node_cls()
        node.value = value
        record(out, node, (input, tensor1, tensor2))
        # As PyTorch, only what a needed formula reads is saved (and so version-checked in backward);
        # an input's gradient is needed when it has an edge (a view made under no_grad has none).
        rg1, rg2 = (node._next_functions[i][0] is not None for i in (1, 2))
        div = node_cls is AddcdivBackward0
        node.save(**{name: t for name, t, needed in (("tensor1", tensor1, rg2), ("tensor2", tensor2, rg1 or div and rg2))
                     if needed})
    return out


def addcmul(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 * tensor2``.

    Example::

        >>> torch.addcmul(torch.ones(2), torch.tensor([1., 2.]), torch.tensor([3., 4.]), value=0.5)
        tensor([2.5000, 5.0000])
    """
    return _addc(input, tensor1, tensor2, value, np.multiply, AddcmulBackward0)


def addcdiv(input, tensor1, tensor2, *, value=1):
    """``input + value * tensor1 / tensor2``."""
    if input._data.dtype.kind in "biu" and tensor1._data.dtype.kind in "biu" and tensor2._data.dtype.kind in "biu":
        raise RuntimeError("Integer division with addcdiv is no longer supported, and in a future  release "
                           "addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv "
                           "behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2))."
                           "to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for "
                           "float inputs. The future addcdiv behavior is just the latter implementation: "
                           "(input + value * tensor1 / tensor2), for all dtypes.")
    return _addc(input, tensor1, tensor2, value, np.divide, AddcdivBackward0)


class LerpBackward0(Node):
    keeps = ("weight",)

    def jvp(self, tangents, inputs, result):
        return _lerp_tangent(tangents, inputs, self.weight)

    def backward(self, grad):
        w = self.weight
        return (mul_scalar(grad, 1 - w) if self._next_functions[0][0] is not None else None,
                mul_scalar(grad, w) if self._next_functions[1][0] is not None else None)


def _lerp_tangent(tangents, inputs, weight):
    """``lerp(self_t, end_t, weight)``, a missing tangent counting as zero."""
    from ..forward_mode import zeros_tangent
    ts, te = (zeros_tangent(x) if t is None else t for t, x in zip(tangents[:2], inputs[:2]))
    return lerp(ts, te, weight)


class LerpBackward1(Node):
    saves = ("end", "self", "weight")

    def jvp(self, tangents, inputs, result):
        # lerp(self_t, end_t, weight) + weight_t * (end - self)
        x, end, w = inputs
        lin = _lerp_tangent(tangents, inputs, w) if tangents[0] is not None or tangents[1] is not None else None
        total = _jvp_sum((lin, None if tangents[2] is None else tangents[2] * (end - x)))
        return linked(total, (x, end, w), shape=result._data.shape) if any(t is None for t in tangents) else total

    def backward(self, grad):
        needs = [fn is not None for fn, _ in self._next_functions]
        w = self.saved("weight")
        # The generated node computes the formulas in name order: end, self, weight.
        g_end = grad * w if needs[1] else None
        g_self = grad * _one_minus(w) if needs[0] else None
        return g_self, g_end, grad * (self.saved("end") - self.saved("self")) if needs[2] else None


def _one_minus(w):
    """``1 - w`` as ATen's C++ operator builds it: ``empty_like(w).fill_(1).sub_(w)`` (SubBackward0)."""
    return sub(_make(np.ones_like(w._data)), w)


def lerp(input, end, weight):
    """``input + weight * (end - input)``, computed from the nearer end as PyTorch does.

    Example::

        >>> torch.lerp(torch.zeros(2), torch.tensor([4., 8.]), 0.25)
        tensor([1., 2.])
    """
    tensors = (input, end, weight) if isinstance(weight, Tensor) else (input, end)
    dtype = input._data.dtype
    for name, t in (("end", end), ("weight", weight)):
        if isinstance(t, Tensor) and t._data.dtype != dtype:
            raise RuntimeError(f"expected dtype {_CPP_NAMES[dtype.name]} for `{name}` but got dtype "
                               f"{_CPP_NAMES[t._data.dtype.name]}")
    if dtype.kind != "f":
        kernel = "lerp_kernel_tensor" if isinstance(weight, Tensor) else "lerp_kernel_scalar"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{input.dtype.legacy_name[:-6]}'")
    a, b = _arrays((input, end), dtype)
    w = weight._data.astype(dtype, copy=False) if isinstance(weight, Tensor) else np.asarray(weight, dtype)
    diff = b - a
    # ATen's kernel, each side one fused multiply-add: fma(w, diff, self) or fma(-diff, 1 - w, end)
    near = _fp.fma(w, diff, a) if dtype in (np.float32, np.float64) else a + w * diff
    far = _fp.fma(-diff, 1 - w, b) if dtype in (np.float32, np.float64) else b - diff * (1 - w)
    out = _make(np.asarray(np.where(np.abs(w) < 0.5, near, far)).astype(dtype, copy=False))
    if grad_on(*tensors):
        if isinstance(weight, Tensor):
            node = LerpBackward1()
            node.save(self=input, end=end, weight=weight)
        else:
            node = LerpBackward0()
            node.weight = weight
        record(out, node, tensors)
    return out
