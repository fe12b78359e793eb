"""Division remainders: floor_divide, remainder and fmod, with PyTorch's gradients (the quotient is
piecewise constant, so ``self`` gets the gradient as is) and its NotImplemented node where it has
none. Apart from ``comparison.py``, whose broadcasting ``_compare`` they run their kernels through,
because they are arithmetic with their own nodes, not comparisons.
"""
from ..node import Node
from .base import Tensor, grad_on, np, record
from .comparison import _compare


class RemainderBackward0(Node):
    """``tensor % number``: the gradient passes through (the quotient is piecewise constant)."""

    element_wise = True
    args = ()
    fw_alias = True  # derivatives.yaml's ``self: grad``: the tangent is self_t itself, not a copy

    def backward(self, grad):
        return grad


class RemainderBackward1(Node):
    saves = ("other", "self")
    rounding = "floor"

    def jvp(self, tangents, inputs, result):
        # self_t - other_t * self.div(other, rounding_mode)
        from .pointwise import div
        (at, bt), (a, b) = tangents, inputs
        if bt is None:
            return at
        part = bt * div(a, b, rounding_mode=self.rounding)
        return -part if at is None else at - part

    def backward(self, grad):
        from .pointwise import div
        g_self = grad if self._next_functions[0][0] is not None else None
        g_other = None
        if self._next_functions[1][0] is not None:
            g_other = -grad * div(self.saved("self"), self.saved("other"), rounding_mode=self.rounding)
        return g_self, g_other


class FmodBackward0(RemainderBackward0):
    pass


class FmodBackward1(RemainderBackward1):
    rounding = "trunc"


class _NotImplemented(Node):
    """PyTorch's node for an op without a derivative: backward through it raises."""

    def __init__(self):
        super().__init__()
        # PyTorch's error nodes are built without a sequence number (the maximum, like a leaf's
        # accumulator), so the engine runs one, and raises, before any other ready node.
        self._seq = float("inf")

    def backward(self, grad):
        raise RuntimeError(f"derivative for aten::{self.op} is not implemented")

    def jvp(self, tangents, inputs, result):
        raise NotImplementedError(f"Trying to use forward AD with aten::{self.op} that does not support it.")

    def name(self):
        return "torch::autograd::NotImplemented"


_NotImplemented.__name__ = _NotImplemented.__qualname__ = "NotImplemented"


def _divide_op(fn, op, scalar_node, tensor_node):
    def divide(input, other):
        out = _compare(fn)(input, other)
        if out._data.dtype.kind == "f" and grad_on(input, other):
            if not isinstance(input, Tensor) or tensor_node is None:
                node = _NotImplemented()
                node.op = op
            else:
                node = tensor_node() if isinstance(other, Tensor) else scalar_node()
            if isinstance(node, RemainderBackward1):
                node.save(self=input, other=other)
            record(out, node, tuple(t for t in (input, other) if isinstance(t, Tensor)))
        return out
    divide.__name__ = op
    return divide


def _remainder_kernel(a, b):
    """PyTorch's floating remainder: fmod, moved by ``b`` when the signs differ.

    NumPy's remainder gives a zero result ``b``'s sign; PyTorch keeps fmod's (``a``'s), so
    ``-0.0 % 2`` is ``-0.0`` there and ``2 / (x % 2)`` is ``-inf``.
    """
    if np.result_type(a, b).kind != "f":
        return np.remainder(a, b)
    with np.errstate(invalid="ignore"):
        mod = np.fmod(a, b)
        return np.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod)


_remainder_kernel.__name__ = "remainder"
floor_divide = _divide_op(np.floor_divide, "floor_divide", None, None)
remainder = _divide_op(_remainder_kernel, "remainder", RemainderBackward0, RemainderBackward1)
fmod = _divide_op(np.fmod, "fmod", FmodBackward0, FmodBackward1)
