"""Forward mode through in-place ops: where the written tensor's tangent goes.

PyTorch's rules (``AutogradMeta::set_fw_grad`` and the in-place codegen):

- a tensor that already has a tangent keeps that very tensor, updated in place, so the tangents
  of its views (views of it) see the change;
- a tensor without one takes the op's new tangent; when it is a view, its base first gets a tangent
  of zeros and the view's tangent is the same view of that, so the base's tangent is zero outside
  the written part;
- a view that has no tangent of its own reads its base's (PyTorch does it lazily on the first read;
  here every live view is given its view when the base gets a tangent).
"""
from .. import forward_mode
from .base import _make, np


def with_tangents(old, t):
    """``old``, the snapshot an in-place op computes from, carrying copies of ``t``'s tangents: the
    formula reads them, and the op may save ``old`` for backward, where its tangent must stay the
    one from before the write (``t``'s own is then updated in place). Returns ``old``."""
    if t._fw_grads:
        from .pointwise import clone
        old._fw_grads = {}
        for level, tangent in t._fw_grads.items():
            if level in forward_mode.levels:
                with forward_mode.hidden(level):
                    old._fw_grads[level] = clone(tangent)
    return old


def take_tangents(t, res, keep_dtype=False):
    """Gives ``t``, just written in place with ``res``'s values, ``res``'s tangents."""
    if t._data.dtype.kind not in "fc":
        return
    for level in tuple(forward_mode.levels):
        new = forward_mode.tangent(res, level)
        if new is None:
            continue
        if new._data.dtype != t._data.dtype and not keep_dtype:
            # float32 x.add_(float64 dual): the tangent is cast as the values are (copy_ keeps the
            # source's tangent dtype, as PyTorch's)
            with forward_mode.hidden(level):
                new = new.to(t.dtype)
        own = forward_mode.tangent(t, level)
        if own is None:
            base = t._base
            if base is not None and "_view_fn" in t.__dict__:
                if forward_mode.tangent(base, level) is None:
                    zeros = _make(np.zeros_like(base._data, dtype=new._data.dtype))
                    forward_mode.set_tangent(base, zeros, level)
                share_with_views(base, level)
                own = forward_mode.tangent(t, level)
        if own is not None:
            with forward_mode.hidden(level):
                from .inplace import copy_
                copy_(own, new)
            continue
        forward_mode.set_tangent(t, _fresh(new, t), level)
        share_with_views(t, level)


def _fresh(new, t):
    """The new tangent of a tensor that had none, laid out as the tensor (PyTorch's set_fw_grad
    copies it into the tensor's strides when they differ)."""
    if new._data.strides != t._data.strides and t._data.size > 1:
        data = np.empty_like(t._data, dtype=new._data.dtype)
        data[...] = new._data
        new._data = data
    return new


def share_with_views(root, level):
    """Every live view of ``root`` without a tangent at ``level`` takes the same view of the root's."""
    tangent = forward_mode.tangent(root, level)
    for ref in root.__dict__.get("_views", ()):
        v = ref()
        if v is None or v._base is not root or (v._fw_grads and level in v._fw_grads):
            continue
        if v._data.dtype.kind not in "fc" or "_view_fn" not in v.__dict__:
            continue
        with forward_mode.hidden(level):
            view = v._view_fn(tangent)
        forward_mode.set_tangent(v, view, level)


def reshape_tangents(t, out, op, args):
    """An in-place view op (``unsqueeze_``, ``t_``...) changed ``t``'s shape to ``out``'s: its
    tangent changes the same way, by the same in-place op (PyTorch's ``self_t.squeeze_(dim)``: a
    tangent that requires grad records SqueezeBackward4; a leaf one is refused)."""
    if not t._fw_grads:
        return
    from .inplace import view_
    for level, own in t._fw_grads.items():
        new = out._fw_grads.get(level) if out._fw_grads else None
        if new is not None and level in forward_mode.levels:
            if own._data.shape == new._data.shape:
                continue  # the tangent is the primal's own view: already changed with it
            with forward_mode.hidden(level):
                view_(own, op, *args)
