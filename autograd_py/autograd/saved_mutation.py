"""``torch.autograd.graph.allow_mutation_on_saved_tensors``: saved tensors are cloned before an
in-place write, so backward still sees the values they had when they were saved.

A saved tensor is packed as a handle that remembers the tensor; an in-place write into a
tensor (or into any view sharing its version counter) at the version it was saved at first
swaps in a clone. Views share their base's version counter, which stands for PyTorch's storage.
"""
import contextlib
import weakref

from .. import grad_mode
from .. import saved_tensor as _saved
from .graph import saved_tensors_hooks

_enabled = [False]
_OUTSIDE = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
            "in which the graph was originally recorded.")


class _Handle:
    pass


class _AllowMutationOnSavedContext:
    """What the context tracks: originals and clones by handle, handles by tensor and version."""

    def __init__(self):
        self.cloned = weakref.WeakKeyDictionary()
        self.original = weakref.WeakKeyDictionary()
        self.tid_to_weakhandle = weakref.WeakValueDictionary()
        self.sid_to_tid = {}

    def clear(self):
        self.cloned.clear()
        self.original.clear()
        self.tid_to_weakhandle.clear()
        self.sid_to_tid.clear()

    def pack(self, tensor):
        sid = (id(tensor._version_counter), tensor._version_counter[0])
        tid = (id(tensor),) + sid
        self.sid_to_tid.setdefault(sid, set()).add(tid)
        handle = self.tid_to_weakhandle.get(tid)
        if handle is None:
            handle = _Handle()
            self.tid_to_weakhandle[tid] = handle
            self.original[handle] = tensor
        return handle

    def unpack(self, handle):
        if not _enabled[0]:
            raise AssertionError(_OUTSIDE)
        if handle in self.cloned:
            return self.cloned[handle]
        if handle not in self.original:
            raise AssertionError(_OUTSIDE)
        return self.original[handle]

    def before_write(self, t):
        """Clones every saved tensor that this write into ``t`` would change."""
        for tid in self.sid_to_tid.get((id(t._version_counter), t._version_counter[0]), ()):
            handle = self.tid_to_weakhandle.get(tid)
            if handle is None or handle in self.cloned:
                continue  # freed by a backward already, or cloned by an earlier write
            with grad_mode.no_grad():
                self.cloned[handle] = self.original[handle].clone()
            del self.original[handle]


_AllowMutationOnSavedContext.__module__ = "torch.autograd.graph"


@contextlib.contextmanager
def allow_mutation_on_saved_tensors():
    """Context manager under which mutating tensors saved for backward is allowed.

    Tensors saved for backward are cloned when they are about to be modified in place, so
    backward uses the values they had when saved. Run both the forward and the backward
    inside the same context.

    Returns:
        The ``_AllowMutationOnSavedContext`` tracking the saved tensors (cleared on exit).

    Example::

        >>> with torch.autograd.graph.allow_mutation_on_saved_tensors():
        ...     a = torch.ones(2, 3, requires_grad=True)
        ...     b = a.clone()
        ...     out = (b**2).sum()
        ...     _ = b.sin_()
        ...     out.sum().backward()
        >>> a.grad
        tensor([[2., 2., 2.],
                [2., 2., 2.]])
    """
    ctx = _AllowMutationOnSavedContext()
    with saved_tensors_hooks(ctx.pack, ctx.unpack):
        previous_write_hook = _saved.before_write[0]
        _saved.before_write[0] = ctx.before_write
        try:
            if _enabled[0]:
                raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
            _enabled[0] = True
            yield ctx
        finally:
            ctx.clear()
            _enabled[0] = False
            _saved.before_write[0] = previous_write_hook
