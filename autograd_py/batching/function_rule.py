"""``autograd.Function`` under vmap, as PyTorch allows it.

- A Function with a ``vmap`` staticmethod batches itself: it gets the physical inputs (batch dim
  first, or None where an input is not batched) and returns outputs with their batch dims.
- With ``generate_vmap_rule = True`` the Function's own staticmethods run under a vmap level of
  their own: a Function over the physical tensors is made whose ``forward``, ``setup_context``,
  ``backward`` and ``jvp`` see one example each, so its ops batch by their own rules.
- Any other Function raises PyTorch's error; so does one without ``setup_context``.
"""
import contextlib
from collections import namedtuple

from .._tensor import Tensor
from . import dispatch
from .batched import BatchedTensor, is_batched_at, levels

SETUP_CONTEXT_MESSAGE = ("In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, "
                         "...), it must override the setup_context staticmethod. For more details, please see "
                         "https://pytorch.org/docs/main/notes/extending.func.html")

VmapInfo = namedtuple("VmapInfo", ["batch_size", "randomness"])


def no_vmap_message(name):
    return (f"You tried to vmap over {name}, but it does not have vmap support. Please override and implement the "
            "vmap staticmethod or set generate_vmap_rule=True. For more details, please see "
            "https://pytorch.org/docs/main/notes/extending.func.html")


def apply(cls, level, args, kwargs):
    from ..autograd.function import Function
    if cls.setup_context is Function.setup_context:
        raise RuntimeError(SETUP_CONTEXT_MESSAGE)
    size, randomness = next((s, r) for lv, s, r in levels if lv == level)
    in_dims = tuple(0 if is_batched_at(a, level) else None for a in args)
    physical = [a._value if is_batched_at(a, level) else a for a in args]
    if cls.vmap is not Function.vmap:
        out, out_dims = cls.vmap(VmapInfo(size, randomness), in_dims, *physical, **kwargs)
        return _wrap_outputs(out, out_dims, level)
    if not cls.generate_vmap_rule:
        raise RuntimeError(no_vmap_message(cls.__name__))
    out = _generated(cls, in_dims, size, randomness).apply(*physical, **kwargs)
    return _wrap_outputs(out, 0, level)  # every output of the generated Function has the batch first


def _wrap_outputs(out, out_dims, level):
    if isinstance(out, tuple):
        dims = out_dims if isinstance(out_dims, tuple) else (out_dims,) * len(out)
        return tuple(_wrap_one(o, d, level) for o, d in zip(out, dims))
    return _wrap_one(out, out_dims, level)


def _wrap_one(out, dim, level):
    if dim is None or not isinstance(out, Tensor):
        return out
    return BatchedTensor(out.movedim(dim, 0) if dim else out, level)


@contextlib.contextmanager
def _example_level(size, randomness):
    """A vmap level of its own around one of the Function's staticmethods."""
    from .vmap import _level_ids
    level = next(_level_ids)
    if not levels:
        dispatch.install()
    levels.append((level, size, randomness))
    try:
        yield level
    finally:
        levels.pop()  # the wrappers stay until called outside a vmap (see dispatch.install)


def _logical(values, dims, level):
    return [BatchedTensor(v, level) if d == 0 and isinstance(v, Tensor) else v for v, d in zip(values, dims)]


def _physical(value, level, size, batched=True):
    """A staticmethod's result back on the physical tensors: an unbatched result of a batched
    slot is expanded over the batch; a batched gradient of an unbatched input is summed."""
    if not isinstance(value, Tensor):
        return value
    if is_batched_at(value, level):
        return value._value if batched else value._value.sum(0)
    return value.unsqueeze(0).expand(size, *value.shape) if batched else value


class _SavedProxy:
    """The ctx a staticmethod sees: saved tensors and gradients one example at a time."""

    def __init__(self, ctx, level, dims):
        object.__setattr__(self, "_ctx", ctx)
        object.__setattr__(self, "_level", level)
        object.__setattr__(self, "_dims", dims)

    def __getattr__(self, name):
        return getattr(self._ctx, name)

    def __setattr__(self, name, value):
        setattr(self._ctx, name, value)

    def save_for_backward(self, *tensors):
        self._ctx._saved_dims = [0 if is_batched_at(t, self._level) else None for t in tensors]
        self._ctx.save_for_backward(*[t._value if is_batched_at(t, self._level) else t for t in tensors])

    def save_for_forward(self, *tensors):
        self._ctx._saved_forward_dims = [0 if is_batched_at(t, self._level) else None for t in tensors]
        self._ctx.save_for_forward(*[t._value if is_batched_at(t, self._level) else t for t in tensors])

    def mark_non_differentiable(self, *args):
        self._ctx.mark_non_differentiable(*[a._value if is_batched_at(a, self._level) else a for a in args])

    def mark_dirty(self, *args):
        self._ctx.mark_dirty(*[a._value if is_batched_at(a, self._level) else a for a in args])

    @property
    def saved_tensors(self):
        saved = self._ctx.saved_tensors
        dims = getattr(self._ctx, "_saved_dims", None) or getattr(self._ctx, "_saved_forward_dims", None) or \
            [None] * len(saved)
        return tuple(_logical(saved, dims, self._level))


def _generated(cls, in_dims, size, randomness):
    """A Function over the physical tensors running ``cls``'s staticmethods one example at a time."""
    from ..autograd.function import Function

    def forward(*args, **kwargs):
        with _example_level(size, randomness) as level:
            out = cls.forward(*_logical(args, in_dims, level), **kwargs)
            if isinstance(out, tuple):
                return tuple(_physical(o, level, size) for o in out)
            return _physical(out, level, size)

    def setup_context(ctx, inputs, output):
        with _example_level(size, randomness) as level:
            outs = output if isinstance(output, tuple) else (output,)
            logical_out = _logical(outs, [0] * len(outs), level)
            cls.setup_context(_SavedProxy(ctx, level, in_dims), tuple(_logical(inputs, in_dims, level)),
                              tuple(logical_out) if isinstance(output, tuple) else logical_out[0])

    def backward(ctx, *grads):
        with _example_level(size, randomness) as level:
            result = cls.backward(_SavedProxy(ctx, level, in_dims), *_logical(grads, [0] * len(grads), level))
            result = result if isinstance(result, tuple) else (result,)
            return tuple(_physical(g, level, size, batched=d == 0) if g is not None else None
                         for g, d in zip(result, in_dims))

    def jvp(ctx, *tangents):
        with _example_level(size, randomness) as level:
            result = cls.jvp(_SavedProxy(ctx, level, in_dims), *_logical(tangents, in_dims, level))
            if isinstance(result, tuple):
                return tuple(_physical(t, level, size) for t in result)
            return _physical(result, level, size)

    body = {"forward": staticmethod(forward), "setup_context": staticmethod(setup_context),
            "backward": staticmethod(backward)}
    if cls.jvp is not Function.jvp:
        body["jvp"] = staticmethod(jvp)
    return type(f"Vmapped{cls.__name__}", (Function,), body)  # PyTorch names it so (VmappedScaleBackward)


__all__ = ["apply", "VmapInfo"]
