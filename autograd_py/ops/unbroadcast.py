"""The engine's un-broadcast of a gradient on NumPy data, when no graph is being recorded.

``shape.sum_to`` sums a broadcast gradient back to its input's shape with Tensor ops (a ``sum``,
then a ``reshape`` view), which costs ~25 us of Python on a bias's gradient. With grad mode off
nothing records them, so the same NumPy reduction is called here directly; the result has the
same values, dtype and layout, and is the same kind of tensor: a view of the reduced tensor when
leading dims go, as PyTorch's ``at::sum_to`` returns (a tensor hook sees its ``_base``).
"""
from .base import _make, np
from .reduction import _accurate
from .shape import _view_chain, view


def sum_to_plain(grad, shape):
    """``shape.sum_to(grad, shape)`` for a plain tensor with grad mode and batch dims off.

    Args:
        grad (Tensor): a floating gradient, no tangents, not an efficient zero tensor.
        shape (tuple): the input's shape.

    Returns:
        Tensor or None: None when ``shape`` does not broadcast to the gradient's (the caller
        raises PyTorch's error through ``sum_to``).
    """
    out = sum_to_data(grad._data, shape)
    return grad if out is grad._data else out


def sum_to_data(data, shape):
    """``sum_to_plain`` of a gradient's array: a Tensor, or ``data`` itself when it has the shape
    already (ExpandBackward0's formula on NumPy data hands it on), or None as there."""
    src, target = data.shape, tuple(shape)
    lead = len(src) - len(target)
    if lead < 0 or data.dtype.kind not in "fc":
        return None
    if not target:  # a full sum, no view (SumBackward0's sum)
        return _make(_accurate(np.sum, data, tuple(range(len(src))), False))
    dims = list(range(lead))
    for i, s in enumerate(target):
        n = src[i + lead]
        if s == 1 and n != 1:
            dims.append(i + lead)
        elif s != n and s != 1:
            return None
    if not dims:
        return data
    out = _make(_accurate(np.sum, data, tuple(dims), True))
    if not lead:
        return out
    return _view_chain(_make(out._data.reshape(target)), out, lambda t: view(t, target),
                       lambda a: a.reshape(target))
