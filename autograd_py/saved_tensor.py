"""Tensors saved for backward (PyTorch's ``SavedVariable``) and the saved-tensor hooks that pack them.

``torch.autograd.graph.saved_tensors_hooks`` pushes a (pack, unpack) pair on ``default_hooks``;
every tensor saved while it is active is stored as ``pack(tensor)`` and rebuilt with ``unpack``
when backward (or ``grad_fn._saved_*``) needs it.
"""
import itertools
import re

from . import forward_mode, grad_mode

# (pack_hook, unpack_hook) pairs, innermost last; only the innermost pair applies.
default_hooks = []
# The message of the innermost active ``disable_saved_tensors_hooks``, else None.
disabled_message = [None]
# ``allow_mutation_on_saved_tensors`` puts a callable here, run with a tensor about to be written in place.
before_write = [None]
# Set once any tensor was packed: only then does freeing a node look for packed objects to drop.
ever_packed = [False]

_grad_state = grad_mode._state
_fw_levels = forward_mode.levels

# The sequence number the next node would take, as of the last in-place write (``bump_version``);
# -1: none yet. A node made after it (``node._seq >= last_write[0]``) cannot have seen a tensor it
# saved change since, so backward skips that node's check of saved versions: W1's chain is a
# thousand such nodes.
last_write = [-1]
# The sequence numbers nodes take (``node._sequence``): kept here, which node imports, so that
# bump_version reads it without an import per write.
_sequence = itertools.count()
_count_repr_start = len("count(")


def bump_version(t, times=1):
    """Counts ``times`` in-place writes on ``t``: every version bump goes through here, so that
    ``last_write`` stays true (``tests/test_saved_versions.py`` checks that nothing else bumps).

    Args:
        t (Tensor): the tensor written (its views share the counter).
        times (int): how many writes PyTorch's op would count.
    """
    t._version_counter[0] += times
    # itertools.count only shows its next value in its repr: taking it with next() would use up a
    # sequence number, which PyTorch does not (grad_fn._sequence_nr() shows the gaps)
    last_write[0] = int(repr(_sequence)[_count_repr_start:-1])


FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)
PACK_MODIFIED_MESSAGE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack hook "
    "cannot be modified by in-place operations as this can lead to unexpected side-effects. Please open "
    "an issue if you need to perform in-place operations on the input to a pack hook."
)


def _type_description(data):
    from .dtypes import from_numpy_dtype
    sizes = ", ".join(str(s) for s in data.shape)
    # PyTorch's Python errors turn its "CPUFloatType" into "torch.FloatTensor", but not for bool.
    if data.dtype.kind == "b":
        return f"CPUBoolType [{sizes}]"
    return f"torch.{from_numpy_dtype(data.dtype).legacy_name} [{sizes}]"


def op_name(node):
    """PyTorch 2.13 names the forward op in this message: ``ExpBackward0`` becomes ``Exp``, and
    ``MinBackward1`` becomes ``Min1`` (only the first overload drops its number)."""
    return re.sub(r"Backward(?:0$|(?=\d*$))", "", node.name())


class SavedTensor:
    """A tensor saved for backward, with the version it had when it was saved.

    An op's own output is kept as its data and version counter, not as the tensor: the tensor's
    ``grad_fn`` is the saving node, so holding it would make a reference cycle that only the
    garbage collector can free. Unpacking rebuilds it with that node as its ``grad_fn``, as
    PyTorch does, so ``create_graph`` still differentiates through it.

    Under saved-tensor hooks only ``pack(tensor)`` is kept (plus what is needed to give the
    unpacked tensor its history back); the version check is then skipped, as in PyTorch.
    ``grad_fn._raw_saved_<name>`` hands this object out, with ``data``, ``unpack()``,
    ``unpack_hook`` and ``register_hooks(pack, unpack)``.
    """

    __slots__ = ("tensor", "array", "counter", "version", "output_nr", "cls", "is_output", "shape",
                 "hooks", "packed", "grad_fn", "accumulator", "requires_grad", "owner", "view_fn_ref",
                 "fw_grads", "name", "__weakref__")

    def __init__(self, tensor, is_output=False):
        self.counter = counter = tensor._version_counter
        if counter.__class__ is not list and _grad_state[0]:
            raise RuntimeError(grad_mode.INFERENCE_SAVED)
        self.version = counter[0]
        self.array = tensor._data
        self.is_output = is_output
        self.hooks = None
        if is_output:
            self.tensor = None
            self.output_nr = tensor._output_nr
            self.cls = tensor.__class__
            self.fw_grads = None  # read for outputs only (``_unpack``)
            if _fw_levels:
                # The output gets its tangents after being saved: share the dict they go into, so
                # that backward (forward-over-reverse) sees them, as PyTorch saves the fw grad.
                if tensor._fw_grads is None:
                    tensor._fw_grads = {}
                self.fw_grads = tensor._fw_grads
        else:
            self.tensor = tensor
        if default_hooks:
            self._pack(default_hooks[-1], tensor, tensor)

    # --- hooks --------------------------------------------------------------------------------
    def _pack(self, hooks, tensor, given):
        """Stores ``pack(given)`` in place of the tensor; raises if the hook wrote into it."""
        self.requires_grad = tensor._requires_grad
        self.grad_fn = None if self.is_output else tensor._grad_fn
        self.output_nr = tensor._output_nr
        self.accumulator = tensor._accumulator if tensor._grad_fn is None and tensor._requires_grad else None
        if self.accumulator is None and tensor._grad_fn is None and tensor._requires_grad:
            self.accumulator = tensor._get_accumulator()
        self.cls = tensor.__class__
        self.shape = tensor._data.shape
        self.hooks = hooks
        ever_packed[0] = True
        with grad_mode.no_grad():
            self.packed = hooks[0](given)
        if tensor._version_counter[0] != self.version:
            raise RuntimeError(PACK_MODIFIED_MESSAGE)
        self.tensor = self.array = None

    def register_hooks(self, *args):
        """Packs this saved tensor with ``pack_hook`` now; ``unpack_hook`` rebuilds it when used.

        Args:
            pack_hook (callable): ``pack_hook(tensor) -> Any``.
            unpack_hook (callable): ``unpack_hook(packed) -> Tensor``.
        """
        if len(args) != 2 or not all(callable(a) for a in args):
            raise TypeError(
                "register_hooks(): incompatible function arguments. The following argument types are supported:\n"
                "    1. (self: torch._C._autograd.SavedTensor, arg0: collections.abc.Callable, "
                "arg1: collections.abc.Callable) -> None\n\n"
                f"Invoked with: {', '.join(repr(a) for a in (self,) + args)}")
        pack_hook, unpack_hook = args
        if self.hooks is not None:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already been set. "
                               "Hint: only one pair of hooks is allowed at a time.")
        if self._is_freed():
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values of "
                "the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if "
                "you need to backward through the graph a second time or if you need to access saved variables "
                "after calling backward.")
        if self.is_output:
            t = self._unpack(self._owner())
        else:
            t = self.tensor
        from .ops.base import _make
        plain = _make(self.array)
        plain._version_counter = self.counter
        self._pack((pack_hook, unpack_hook), t, plain)

    @property
    def unpack_hook(self):
        return self.hooks[1] if self.hooks is not None else None

    @property
    def data(self):
        """What is stored: the packed object under hooks, else the saved tensor (None once freed)."""
        if self._is_freed():
            return None
        if self.hooks is not None:
            return self.packed
        if self.tensor is not None:
            return self.tensor
        from .ops.base import _make
        plain = _make(self.array)
        plain._version_counter = self.counter
        return plain

    def unpack(self):
        """The saved tensor, as backward sees it."""
        if self._is_freed():
            raise RuntimeError(FREED_MESSAGE)
        return self._unpack(self._owner())

    def _owner(self):
        """The node this was handed out by (``_raw_saved_*``), if it is still alive."""
        ref = getattr(self, "owner", None)
        return ref() if ref is not None else None

    def _is_freed(self):
        node = self._owner()
        return node is not None and node._freed

    def sizes(self):
        return self.array.shape if self.hooks is None else self.shape

    def release(self):
        """Drops what the pack hook returned (backward is done with it)."""
        self.packed = None

    # --- engine side ----------------------------------------------------------------------------
    def _unpack(self, saved_for):
        if self.hooks is not None:
            return self._unpack_hooked(saved_for)
        current = self.counter[0]
        if current != self.version:
            self._raise_modified(saved_for, current)
        if self.tensor is not None:
            return self.tensor
        t = object.__new__(self.cls)
        t._data, t._version_counter = self.array, self.counter
        t._grad_fn, t._output_nr, t._requires_grad = saved_for, self.output_nr, True
        if self.fw_grads:
            t._fw_grads = self.fw_grads
        return t

    def _unpack_hooked(self, saved_for):
        from ._tensor import Tensor
        result = self.hooks[1](self.packed)
        if not isinstance(result, Tensor):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                            f"{type(result).__name__}")
        grad_fn = saved_for if self.is_output else self.grad_fn
        if grad_fn is None and not self.requires_grad and not result._requires_grad:
            return result
        t = object.__new__(self.cls)
        t._data, t._version_counter = result._data, result._version_counter
        t._grad_fn, t._output_nr = grad_fn, self.output_nr if grad_fn is not None else 0
        t._requires_grad = grad_fn is not None or self.requires_grad
        if grad_fn is None and self.accumulator is not None:
            t._accumulator = self.accumulator
        return t

    def _raise_modified(self, saved_for, current):
        t = self.tensor
        if t is not None and t._creation_meta is not None:
            t.grad_fn  # noqa: B018  (a view whose base was written raises its view error first, as PyTorch)
        if self.is_output:
            ref = getattr(self, "view_fn_ref", None)
            grad_fn = ref() if ref is not None else None
            if grad_fn is None:
                grad_fn = getattr(saved_for, "fn", saved_for)  # CopySlices runs its op's node
        else:
            grad_fn = self.tensor._grad_fn
        output_nr = self.output_nr if self.is_output else self.tensor._output_nr
        where = f", which is output {output_nr} of {op_name(grad_fn)}," if grad_fn is not None else ""
        if grad_mode.is_anomaly_enabled():
            hint = (" Hint: the backtrace further above shows the operation that failed to compute its "
                    "gradient. The variable in question was changed in there or anywhere later. Good luck!")
        else:
            hint = (" Hint: enable anomaly detection to find the operation that failed to compute its "
                    "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
        raise RuntimeError(
            "one of the variables needed for gradient computation has been modified by an inplace "
            # A saved input is the tensor itself, so its current shape shows (after an unsqueeze_, say).
            f"operation: [{_type_description(self.array if self.tensor is None else self.tensor._data)}]{where} "
            f"is at version {current}; "
            f"expected version {self.version} instead.{hint}"
        )

    def state(self):
        """'alive' or 'modified' (its tensor was changed in place since it was saved)."""
        return "alive" if self.counter[0] == self.version else "modified"


SavedTensor.__module__ = "torch._C._autograd"  # what type() and repr() show, as in PyTorch

_new = object.__new__


def saved_input(tensor):
    """``SavedTensor(tensor)`` while grad mode is on and no saved-tensor hooks are active: the
    hot ops' save, without the class call and ``__init__``'s branches."""
    counter = tensor._version_counter
    if counter.__class__ is not list:
        raise RuntimeError(grad_mode.INFERENCE_SAVED)
    saved = _new(SavedTensor)
    saved.counter = counter
    saved.version = counter[0]
    saved.array = tensor._data
    saved.is_output = False
    saved.hooks = None
    saved.tensor = tensor
    return saved


class UndefinedSaved:
    """``_raw_saved_<name>`` for a value the op did not need to save (PyTorch's undefined SavedVariable)."""

    __slots__ = ()
    data = unpack_hook = None

    def unpack(self):
        return None

    def register_hooks(self, pack_hook, unpack_hook):
        raise RuntimeError("Calling register_hooks on a saved tensor with value None is forbidden")


# PyTorch hands out the same SavedTensor type for a value that was not saved.
UndefinedSaved.__name__ = UndefinedSaved.__qualname__ = "SavedTensor"
UndefinedSaved.__module__ = "torch._C._autograd"
