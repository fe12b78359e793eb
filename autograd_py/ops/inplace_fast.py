"""When an in-place write records nothing and risks nothing, so that ``inplace.apply`` may skip its
checks: a training loop's update, ``with torch.no_grad(): p -= lr * p.grad``.

``apply`` then finds no leaf to refuse, no overlap to refuse or order, no history to record and no
tangent to carry: it runs the op on the tensor under ``no_grad`` and writes the result. The same
op and the same ``_write`` run either way, so the values, version bumps and errors are the general
path's; ``unwatched`` only tells ``apply`` when it may go straight there.
"""
from .. import forward_mode, grad_mode
from ..saved_tensor import before_write
from .base import Tensor, np

_grad_enabled = grad_mode._state
_fw_levels = forward_mode.levels
_may_share_memory = np.may_share_memory
# A test clears it to compare with the general path.
enabled = [True]


def unwatched(t, others):
    """Whether ``apply(t, fn, *others)`` (unmasked) would check, record and order nothing: neither
    ``t`` nor a tensor in ``others`` records (grad mode off, or none requires grad), ``t`` is no
    view and no efficient zero tensor, its memory is laid out in order without repeats (nothing
    expanded), no tensor in ``others`` may share it, and nothing watches writes (forward-mode
    levels, a ``before_write`` hook such as the playground's).

    Args:
        t (Tensor): the tensor to write.
        others (tuple): the op's other inputs, as ``apply`` takes them.

    Returns:
        bool: True when ``apply`` may write ``fn(t)`` into ``t`` at once.
    """
    if not enabled[0] or before_write[0] is not None or _fw_levels or t._base is not None:
        return False
    grad = _grad_enabled[0]
    if grad and t._requires_grad or "_zerotensor" in t.__dict__:
        return False  # (apply's check: a leaf's errors, or a recorded write)
    d = t._data
    if d.ndim and not d.flags.c_contiguous:
        return False  # maybe expanded (PyTorch's internal overlap error), or written in memory order
    for o in others:
        if isinstance(o, Tensor) and o is not t:
            if grad and o._requires_grad:
                return False
            b = o._data
            # an array that owns its memory shares none of it with another that owns its own
            if (b.base is not None or d.base is not None) and _may_share_memory(b, d):
                return False
    return True

