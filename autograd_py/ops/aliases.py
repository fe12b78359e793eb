"""PyTorch's other names for ops autograd_py has, and the small ops defined by others.

Each records what PyTorch's records (checked against torch 2.13): ``swapdims`` is ``transpose``
(TransposeBackward0), ``fix`` is ``trunc``, ``greater``/``less``/... are the comparisons; ``ravel``
is ``contiguous().view(-1)`` (a view of contiguous data, else ViewBackward0 over a
CloneBackward0); ``positive`` hands back its input.

Example::

    >>> torch.ravel(torch.ones(2, 3, requires_grad=True).t()).grad_fn
    <ViewBackward0 object at 0x...>
"""
from .. import dtypes
from .comparison import ge, gt, le, lt, ne
from .pointwise import trunc
from .shape import contiguous, swapaxes, view

greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne
swapdims = swapaxes
fix = trunc


def ravel(input):
    """``input`` flattened: a view when it is contiguous, else a contiguous copy viewed as 1-D."""
    return view(contiguous(input), -1)


def positive(input):
    """``+input``: the input itself (PyTorch refuses it for bool tensors, as its ``+`` does)."""
    if input.dtype is not dtypes.bool:
        return input
    raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
