"""Activations that are not one value per element: glu (halves of a dim), prelu (a weight per
channel) and softmin (softmax of ``-x`` along a dim), with PyTorch's nodes and checks."""
import warnings

from .. import _fp
from ..node import Node
from ..ops.base import Tensor, _make, grad_on, np, record
from ..ops.comparison import where
from ..ops.joining import cat, chunk
from ..ops.pointwise import neg, sigmoid
from ..ops.shape import reshape, sum_to
from ..ops.softmax import softmax as _softmax
from ._activation_piecewise import _check_tensor, _floating


# ---------------------------------------------------------------------------- glu
class GluBackward0(Node):
    saves = ("self",)
    keeps = ("dim",)

    def backward(self, grad):
        # glu_backward: the first half's gradient grad * sigmoid(b), the second's
        # (1 - sigmoid(b)) * sigmoid(b) * a * grad, side by side along dim
        a, b = chunk(self.saved("self"), 2, self.axis)
        s = sigmoid(b)
        return cat([s * grad, (1.0 - s) * s * a * grad], self.axis)

    def jvp(self, tangents, inputs, result):
        # glu_jvp: da * sigmoid(b) + db * glu * (1 - sigmoid(b))
        (x,), (t,) = inputs, tangents
        _, b = chunk(x, 2, self.axis)
        da, db = chunk(t, 2, self.axis)
        s = sigmoid(b)
        return da * s + db * result * (1.0 - s)


def glu(input, dim=-1):
    """The gated linear unit: ``a * sigmoid(b)``, ``a`` and ``b`` the halves of ``input`` along ``dim``
    (``grad_fn=<GluBackward0>``).

    Args:
        input (Tensor): the input; its size along ``dim`` must be even.
        dim (int): the dimension to halve. Default: -1.

    Returns:
        Tensor: ``input``'s shape with ``dim`` halved.

    Example::

        >>> F.glu(torch.tensor([1., 2., 0., 100.]))
        tensor([0.5000, 2.0000])
    """
    _check_tensor(input, "glu")
    d = input._data
    if d.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    if not -d.ndim <= dim < d.ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-d.ndim}, {d.ndim - 1}], "
                         f"but got {dim})")
    axis = dim % d.ndim
    n = d.shape[axis]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {axis} is size {n}")
    d = _floating(input, "glu_cpu")
    a, b = np.split(d, 2, axis)
    one = d.dtype.type(1)
    # ATen's kernel: a * (1 / (1 + exp(-b))) with the scalar exp, all but correctly rounded
    out = _make(a * (one / (one + (_fp.exp(-b) if d.dtype == np.float32 else np.exp(-b)))))
    if grad_on(input):
        node = GluBackward0()
        node.dim = dim if dim >= 0 else dim + 2 ** 64  # ATen shows the int64 dim as unsigned
        node.axis = axis
        node.save(self=input)
        record(out, node, (input,))
    return out


# ---------------------------------------------------------------------------- prelu
class PreluKernelBackward0(Node):
    saves = ("self", "weight")

    def backward(self, grad):
        # _prelu_kernel_backward: grad where x > 0, else weight * grad; the weight's share
        # x * grad where x <= 0, summed down to the weight's (broadcast) shape
        x, w = self.saved("self"), self.saved("weight")
        pos = x > 0
        gx = where(pos, grad, w * grad) if self._next_functions[0][0] is not None else None
        gw = sum_to(where(pos, 0.0, x * grad), w.shape) if self._next_functions[1][0] is not None else None
        return gx, gw

    def jvp(self, tangents, inputs, result):
        # derivatives.yaml: where(self_p >= 0, self_t, weight_p * self_t + weight_t * self_p)
        from ..forward_mode import formula_tangents
        (x, w), (xt, wt) = inputs, formula_tangents(tangents, inputs, result)
        neg_part = None
        if xt is not None:
            neg_part = w * xt
        if wt is not None:
            neg_part = wt * x if neg_part is None else neg_part + wt * x
        return where(x >= 0, xt if xt is not None else 0.0, neg_part)


def prelu(input, weight):
    """``x`` where ``x > 0``, else ``weight * x``, one weight per channel (dim 1) or one for all
    (``grad_fn=<PreluKernelBackward0>``).

    Args:
        input (Tensor): the input.
        weight (Tensor): 1 or ``input.size(1)`` slopes, 0-D or 1-D.

    Example::

        >>> F.prelu(torch.tensor([-2., 3.]), torch.tensor([0.25]))
        tensor([-0.5000,  3.0000])
    """
    _check_tensor(input, "prelu")
    if not isinstance(weight, Tensor):
        raise TypeError(f"prelu(): argument 'weight' (position 2) must be Tensor, not {type(weight).__name__}")
    nd = input.dim()
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {input.dtype.legacy_name[:-6]} and "
                           f"{weight.dtype.legacy_name[:-6]}")
    if weight.numel() != 1:
        if nd == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if nd > 1 else 1
        if channels != weight.numel():
            raise RuntimeError("Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    if nd != weight.dim():  # broadcast over the input as [1, C, 1, ...] (a view: ViewBackward0)
        weight = reshape(weight, tuple(weight.numel() if i == 1 else 1 for i in range(nd)))
    x = _floating(input, "prelu_cpu")
    w = weight._data
    out = _make(np.where(x > 0, x, w * x))
    if grad_on(input, weight):
        node = PreluKernelBackward0()
        node.save(self=input, weight=weight)
        record(out, node, (input, weight))
    return out


# ---------------------------------------------------------------------------- softmin
def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """``softmax(-x)`` along ``dim`` (``grad_fn=<SoftmaxBackward0>`` after ``NegBackward0``).

    Args:
        input (Tensor): the input.
        dim (int): the dimension that sums to 1. Omitting it is deprecated and warns.
        dtype (torch.dtype, optional): cast ``input`` to this type first.

    Example::

        >>> F.softmin(torch.tensor([1., 2., 3.]), dim=0)
        tensor([0.6652, 0.2447, 0.0900])
    """
    if dim is None:
        warnings.warn("Implicit dimension choice for softmin has been deprecated. Change the call to include "
                      "dim=X as an argument.", UserWarning, stacklevel=_stacklevel)
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return _softmax(neg(input), dim, dtype=dtype)
