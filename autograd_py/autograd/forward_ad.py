"""``torch.autograd.forward_ad``: dual tensors, whose tangent every op pushes forward.

Example::

    >>> import autograd_py.autograd.forward_ad as fwAD
    >>> x = torch.tensor([1., 2., 3.])
    >>> with fwAD.dual_level():
    ...     y = fwAD.make_dual(x, torch.ones(3)).sin()
    ...     fwAD.unpack_dual(y).tangent        # cos(x): one Jacobian-vector product
    tensor([ 0.5403, -0.4161, -0.9900])
"""
from collections import namedtuple

import numpy as np

from .. import forward_mode, grad_mode
from .._tensor import Tensor

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual", "dual_level"]

# The public levels (``torch.func`` nests its own, internal ones).
_public = []


def enter_dual_level():
    """Enters a new forward-grad level; returns its index. Only one may be active at a time.

    Returns:
        int: the level, for ``make_dual``/``unpack_dual``/``exit_dual_level``.
    """
    if _public:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _public.append(forward_mode.enter_level(dual=True))
    return 0


def exit_dual_level(*, level=None):
    """Leaves the current level: every tangent created in it is dropped."""
    if level is None:
        level = len(_public) - 1
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level != len(_public) - 1:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was created. "
                           "This is not supported.")
    forward_mode.exit_level(_public.pop())


def exit_all_levels():
    """Leaves every public level (a new playground run starts with none, as a new process)."""
    while _public:
        forward_mode.exit_level(_public.pop())


def _internal(level):
    if level is None:
        return _public[-1] if _public else None
    if not isinstance(level, int) or not 0 <= level < len(_public):
        return None
    return _public[level]


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` carrying ``tangent`` as its forward gradient at ``level``.

    Args:
        tensor (Tensor): the primal, floating point.
        tangent (Tensor): the direction, of the same size.
        level (int, optional): the dual level (default: the current one).

    Returns:
        Tensor: the dual tensor; ops on it compute their outputs' tangents too.
    """
    if (len(_public) - 1 if level is None else level) < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    from ..batching import autograd_bridge as bridge
    if bridge.any_batched((tensor, tangent)):  # PyTorch has no batching rule for it either
        raise RuntimeError("Batching rule not implemented for aten::_make_dual; the fallback path doesn't work on "
                           "out= or view ops.")
    inner = _internal(level)
    if inner is None:
        raise RuntimeError("Invalid level given to _make_dual")
    forward_mode.check_dual(tensor, tangent, size=False)
    if forward_mode.tangent(tensor, inner) is not None:
        raise RuntimeError(f"Making a dual Tensor based on a Tensor that already has a forward gradient at the "
                           f"same level {level or 0} is not supported.")
    forward_mode.check_dual(tensor, tangent)
    from ..ops.shape import view
    out = view(tensor, tensor._data.shape)
    forward_mode.set_tangent(out, _laid_out_like(tangent, tensor), inner)
    return out


def _laid_out_like(tangent, primal):
    """PyTorch keeps the tangent itself when its strides match the primal's, else a copy laid out
    as the primal."""
    if tangent._data.strides == primal._data.strides or tangent._data.size <= 1:
        return tangent
    from ..ops.pointwise import clone
    data = np.empty_like(primal._data, dtype=tangent._data.dtype)
    copy = clone(tangent)
    data[...] = copy._data
    copy._data = data
    return copy


UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__module__ = "torch.autograd.forward_ad"
UnpackedDualTensor.__doc__ = "Named tuple returned by :func:`unpack_dual`: ``primal`` and ``tangent``."


def unpack_dual(tensor, *, level=None):
    """Splits a dual tensor into its primal (a view without the tangent) and its tangent.

    Returns:
        UnpackedDualTensor: ``(primal, tangent)``; ``tangent`` is None when ``tensor`` has none.
        A tensor with no tangent (or no active level) comes back as itself.
    """
    if not _public or not isinstance(tensor, Tensor):
        return UnpackedDualTensor(tensor, None)
    from ..batching import autograd_bridge as bridge
    if bridge.any_batched((tensor,)):
        p, found = bridge.chain(tensor)  # a tangent torch.func put on the physical value
        primal, tangent = unpack_dual(p, level=level)
        return UnpackedDualTensor(bridge.wrapped(primal, found) if tangent is not None else tensor,
                                  None if tangent is None else bridge.wrapped(tangent, found))
    inner = _internal(level)
    if inner is None:
        raise RuntimeError("Invalid level given to _fw_primal")
    # Inside a custom Function's forward or jvp, forward mode is off: no tangent shows.
    tangent = forward_mode.tangent(tensor, inner) if inner in forward_mode.levels else None
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    return UnpackedDualTensor(primal_view(tensor), tangent)


def primal_view(tensor):
    """An alias of ``tensor`` that carries no tangent at any level."""
    from ..ops.shape import view
    with forward_mode.hidden():
        return view(tensor, tensor._data.shape)


class dual_level:
    """Context manager for forward AD: tangents made inside are dropped on exit.

    Example::

        >>> with dual_level():
        ...     inp = make_dual(x, v)
        ...     out = f(inp)
        ...     y, jvp = unpack_dual(out)
    """

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
        return False

    __call__ = grad_mode._GradModeContext.__call__  # also a decorator: a new level per call
