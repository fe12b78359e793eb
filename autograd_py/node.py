"""Backward-graph nodes (``grad_fn`` objects) and hook handles.

Every op's backward class subclasses :class:`Node`. A node knows its ordered input edges
(``next_functions``), what it saved for backward and whether that was freed, which is what the
engine and the graph view need. A node class declares once which values PyTorch shows as
``grad_fn._saved_<name>``: ``saves`` for tensors (freed after backward, also ``_raw_saved_<name>``)
and ``keeps`` for the other arguments (numbers, dims, sizes), read from the node's attributes
(``node_saved`` makes those properties and holds the checks on saved values before a formula).
"""
import itertools
import weakref

from .node_saved import (_check_saved, _kept_property, _raw_saved_property, _saved_property, _wrapped_number, saved_map,
                         saved_states)
from .saved_tensor import FREED_MESSAGE, SavedTensor, UndefinedSaved, default_hooks, ever_packed, last_write
from .saved_tensor import _sequence  # the nodes' sequence numbers, kept where bump_version reads them
from .saved_tensor import op_name as _op_name  # noqa: F401  (imported from here by ops)

# [node, dtype] while a node's formula runs on NumPy data (``numpy_backward``): its ``saved``
# then hands out arrays (NumPy scalars for 0-dim data) of the gradient's dtype.
raw_call = [None, None]
# ops.zerotensor's ``made`` (imported after this module, which it needs): set by numpy_backward.
_zeros_made = [False]


class NeedsTensors(Exception):
    """A value the formula reads cannot stand in as NumPy data: run the node on Tensors."""


class RemovableHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook."""

    _ids = itertools.count()

    def __init__(self, hooks_dict):
        self.id = next(RemovableHandle._ids)
        self._hooks = weakref.ref(hooks_dict) if hooks_dict is not None else None

    def remove(self):
        hooks = self._hooks() if self._hooks is not None else None
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


RemovableHandle.__module__ = "torch.utils.hooks"


class _HookDict(dict):
    """A dict that can be weakly referenced by hook handles."""

    __slots__ = ("__weakref__",)


_PLAIN = frozenset((float, int, bool, type(None), str, tuple))


class Node:
    """Base class of every ``grad_fn``.

    Subclasses implement ``backward(self, *grads)`` returning one gradient per input edge (or a
    single gradient when there is one input), written in Tensor ops so that ``create_graph=True``
    records them. ``Node._apply`` is the engine's entry point; calling a node, ``grad_fn(grad)``,
    runs its formula directly, as in PyTorch.
    """

    # What every node sets is a slot; what few nodes ever set is a class-level default that an
    # instance overrides in its __dict__, so that making a node (once per op) stores two values.
    __slots__ = ("_next_functions", "_input_meta", "_vars", "_seq", "__weakref__", "__dict__")
    _freed = False
    _pre_hooks = None  # tensor hooks, by handle id: (output_nr, fn)
    _node_pre_hooks = None
    _hooks = None
    # True once any hook or retain_grad was registered on this node (AccumulateGrad: always), so
    # the engine tests one attribute per node for all of them; a removed hook leaves it True.
    _special = False

    num_outputs = 1
    supports_batched = True  # its backward also takes gradients with a leading batch dim
    saves = ()  # names of the tensors it saves (``_saved_<name>``, ``_raw_saved_<name>``)
    keeps = ()  # names of the other saved arguments, read from attributes of the same name
    holds_fn = False  # CopySlices: wraps the node ``fn`` of an in-place op on a view
    # Forward mode (see ``forward_mode``): an elementwise node's JVP is derived from ``backward``,
    # which then reads the primals by these input names (default: self, other) and ``result``.
    element_wise = False
    args = None
    # Its backward is written in operators and ops that also take NumPy data, so with no graph to
    # record the engine runs it on arrays (``numpy_backward``); one-output nodes only.
    numpy_formula = False

    def __init__(self):
        self._seq = next(_sequence)
        self._vars = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.__module__ = "builtins"  # PyTorch's node classes print as <class 'MulBackward0'>
        for name in cls.__dict__.get("saves", ()):
            setattr(cls, "_saved_" + name, _saved_property(name))
            setattr(cls, "_raw_saved_" + name, _raw_saved_property(name))
        for name in cls.__dict__.get("keeps", ()):
            setattr(cls, "_saved_" + name, _kept_property(name))

    _retain_refs = None

    @property
    def _retain_grad_refs(self):
        """``retain_grad`` weakrefs by output_nr (or None), set by ``Tensor.retain_grad``."""
        return self._retain_refs

    @_retain_grad_refs.setter
    def _retain_grad_refs(self, refs):
        self._retain_refs = refs
        self._special = True

    # --- identity -----------------------------------------------------------------------
    def name(self):
        return type(self).__name__

    @property
    def next_functions(self):
        return self._next_functions

    @next_functions.setter
    def next_functions(self, value):
        raise AttributeError(f"attribute 'next_functions' of '{type(self).__name__}' objects is not writable")

    def _sequence_nr(self):
        """The creation order the engine runs ready nodes by (a leaf's accumulator: the maximum)."""
        return self._seq if self._seq != float("inf") else 2 ** 64 - 1

    @property
    def metadata(self):
        try:
            return self._metadata
        except AttributeError:
            self._metadata = {}
            return self._metadata

    @property
    def requires_grad(self):
        return True

    @property
    def self_sym_sizes(self):
        """The input's sizes, for nodes that keep them as ``shape`` (PyTorch's ``self_sym_sizes``)."""
        return tuple(self.shape)

    # --- saved values ------------------------------------------------------------------
    def save(node, /, **values):
        """Saves tensors (version-checked) and wrapped numbers for backward; all are freed after backward."""
        saved = node._vars
        if saved is None:
            saved = node._vars = {}
        elif saved.__class__ is SavedTensor:
            saved = saved_map(node)
        # PyTorch packs an op's inputs in name order; only saved-tensor hooks can see the order.
        for key, value in (sorted(values.items()) if default_hooks else values.items()):
            # Tensors (anything with a version counter) are version-checked; numbers are kept as is.
            if value.__class__ in _PLAIN or getattr(value, "_version_counter", None) is None:
                saved[key] = value
            else:
                saved[key] = SavedTensor(value)

    def save_one(node, key, value):
        """``save(key=value)`` for one value, without the keyword dict: the hot ops' path."""
        saved = node._vars
        if saved is None:
            saved = node._vars = {}
        elif saved.__class__ is SavedTensor:
            saved = saved_map(node)
        if value.__class__ in _PLAIN or getattr(value, "_version_counter", None) is None:
            saved[key] = value
        else:
            saved[key] = SavedTensor(value)

    def save_output_one(node, key, value):
        """``save_output(key=value)`` for one output, without the keyword dict."""
        if default_hooks and value._grad_fn is None and value._data.dtype.kind == "f":
            value._grad_fn, value._requires_grad = node, True  # see save_output
        saved = node._vars
        if saved is None:
            saved = node._vars = {}
        elif saved.__class__ is SavedTensor:
            saved = saved_map(node)
        saved[key] = SavedTensor(value, True)

    def save_output(node, /, **values):
        """Saves outputs of the op itself (a version mismatch then names this node)."""
        if node._vars is None:
            node._vars = {}
        saved = saved_map(node)
        for key, value in values.items():
            if default_hooks and value._grad_fn is None and value._data.dtype.kind == "f":
                # A pack hook sees the output with its grad_fn already set, as in PyTorch.
                value._grad_fn, value._requires_grad = node, True
            saved[key] = SavedTensor(value, is_output=True)

    def saved(self, key):
        if raw_call[0] is self:
            # a formula on NumPy data (numpy_backward.run, which steps aside for a freed node);
            # what cannot stand in as data raises NeedsTensors, and the node runs on Tensors
            value = self._vars
            if value.__class__ is not SavedTensor:
                value = value[key]
            elif value.name != key:  # (the one saved tensor, named: see saved_map)
                value = saved_map(self)[key]
            if value.__class__ is SavedTensor:
                if value.hooks is not None:
                    raise NeedsTensors
                t = value.tensor
                if t is None:
                    a = value.array  # an op's own output: no op that makes a zero tensor saves its result
                elif _zeros_made[0] and "_zerotensor" in t.__dict__:
                    raise NeedsTensors
                else:
                    a = t._data
                dtype = a.dtype
                if dtype is not raw_call[1] and dtype != raw_call[1]:
                    raise NeedsTensors
                nd = a.ndim
                if not nd:
                    return a[()]
                if nd > 1 and not a.flags.c_contiguous:
                    raise NeedsTensors
                return a
            cls = value.__class__
            if cls is float or cls is int or cls is bool:
                return value
            raise NeedsTensors
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        value = self._vars
        if value.__class__ is not SavedTensor:
            value = value[key]
        elif value.name != key:
            value = saved_map(self)[key]
        if value.__class__ is not SavedTensor:
            return value
        t = value.tensor
        if t is not None and value.hooks is None and value.counter[0] == value.version:
            return t  # a saved input, unchanged since: what ``_unpack`` would return, without the call
        return value._unpack(self)

    def _get_saved(self, name):
        """``_saved_<name>``: None if the op did not need it, the freed error after backward."""
        saved = saved_map(self)
        if saved is None or name not in saved:
            return None
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        value = saved[name]
        if value.__class__ is SavedTensor:
            return value._unpack(self)
        if isinstance(value, (bool, int, float)):
            return _wrapped_number(value)
        return value

    def _get_raw_saved(self, name):
        saved = saved_map(self)
        value = saved.get(name) if saved is not None else None
        if value is None:
            return UndefinedSaved()
        if value.__class__ is not SavedTensor:
            # PyTorch never shows a wrapped Python number (``x * 2``) to the saved-tensor hooks.
            hooks = default_hooks[:]
            del default_hooks[:]
            try:
                value = saved[name] = SavedTensor(_wrapped_number(value))
            finally:
                default_hooks[:] = hooks
        value.owner = weakref.ref(self)
        return value

    def saved_items(self):
        """Yields (name, SavedTensor or value, state) for the graph view; state as ``saved_states``."""
        states = saved_states(self)
        if states:
            for key, value in saved_map(self).items():
                yield key, value, states[key]

    def _release(self):
        """Frees what was saved (backward is done with it): what pack hooks returned is dropped."""
        if self._vars is None:
            return
        self._freed = True
        if not ever_packed[0]:
            return
        for value in saved_map(self).values():
            if value.__class__ is SavedTensor:
                if value.hooks is not None:
                    value.release()
            elif value.__class__ is list:
                for v in value:
                    if v.__class__ is SavedTensor and v.hooks is not None:
                        v.release()

    # --- hooks --------------------------------------------------------------------------
    def register_hook(self, *args):
        """Registers ``fn(grad_inputs, grad_outputs) -> tuple or None``, run after this node computed
        its gradients; a returned tuple replaces ``grad_inputs``.

        Returns:
            A handle with ``remove()``.
        """
        if len(args) != 1:
            raise TypeError(f"{self.name()}.register_hook() takes exactly one argument ({len(args)} given)")
        if self._hooks is None:
            self._hooks = _HookDict()
            self._special = True
        handle = RemovableHandle(self._hooks)
        self._hooks[handle.id] = args[0]
        return handle

    def register_prehook(self, *args):
        """Registers ``fn(grad_outputs) -> tuple or None``, run before this node computes its
        gradients; a returned tuple replaces ``grad_outputs``.

        Returns:
            A handle with ``remove()``.
        """
        if len(args) != 1:
            raise TypeError(f"{self.name()}.register_prehook() takes exactly one argument ({len(args)} given)")
        if self._node_pre_hooks is None:
            self._node_pre_hooks = _HookDict()
            self._special = True
        handle = RemovableHandle(self._node_pre_hooks)
        self._node_pre_hooks[handle.id] = args[0]
        return handle

    def _register_tensor_hook(self, fn, output_nr):
        """A tensor's ``register_hook``: ``fn(grad) -> grad or None`` on output ``output_nr``."""
        if self._pre_hooks is None:
            self._pre_hooks = _HookDict()
            self._special = True
        handle = RemovableHandle(self._pre_hooks)
        self._pre_hooks[handle.id] = (output_nr, fn)
        return handle

    # --- forward mode -------------------------------------------------------------------------
    def jvp(self, tangents, inputs, result):
        """The output's tangent from the inputs' ``tangents`` (None where an input has none), the
        primal ``inputs`` and the op's ``result``. Elementwise nodes derive it from ``backward``;
        the others override this next to their ``backward``."""
        from . import forward_mode
        if self.element_wise:
            return forward_mode.auto_element_wise(self, tangents, inputs, result)
        raise forward_mode.not_implemented(self)

    # --- running the formula ----------------------------------------------------------------
    def _apply(self, grads):
        """The engine's entry point: ``backward`` on the list of output gradients; returns a list,
        one per input edge."""
        if self._vars and (self._freed or self._seq < last_write[0]):  # (written since: saved_tensor.last_write)
            _check_saved(self)
        if self.num_outputs == 1:
            out = self.backward(grads[0])
        else:
            out = self.backward(*grads)
        return list(out) if type(out) is tuple else [out]

    def __call__(self, *grads, **kwargs):
        from ._tensor import Tensor
        if kwargs:
            raise TypeError("keyword arguments are not supported")
        if len(grads) != self.num_outputs:
            raise TypeError(f"expected {self.num_outputs} arguments, got {len(grads)} instead")
        for i, g in enumerate(grads):
            if g is not None and not isinstance(g, Tensor):
                raise TypeError(f"argument {i} is not a Variable")
        if all(g is None for g in grads):
            out = [None] * len(self._next_functions)
        else:
            out = self._apply(list(grads))
        return out[0] if len(out) == 1 else tuple(out)


class GraphRoot(Node):
    """Virtual node that feeds the root gradients into the graph."""

    __slots__ = ("_grads",)

    def __init__(self, edges, grads):
        super().__init__()
        self._next_functions = tuple(edges)
        self._input_meta = None
        self._grads = grads

    def _apply(self, grads):
        return list(self._grads)


# The leaf's node lives in its own module (it imports Node); re-exported here, where callers look.
from .accumulate_grad import ZEROTENSOR_IMMUTABLE, AccumulateGrad  # noqa: E402,F401
