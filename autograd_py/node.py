"""Backward-graph nodes (``grad_fn`` objects), saved tensors and hook handles.

Every op's backward class subclasses :class:`Node`. A node knows its ordered input edges
(``next_functions``), what it saved for backward and whether that was freed, which is what the
engine and the graph view need.
"""
import itertools
import re
import weakref

from . import grad_mode

_sequence = itertools.count()

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


def _type_description(data):
    from .dtypes import from_numpy_dtype
    sizes = ", ".join(str(s) for s in data.shape)
    return f"torch.{from_numpy_dtype(data.dtype).legacy_name} [{sizes}]"


def _op_name(node):
    """PyTorch 2.13 names the forward op in this message: ``ExpBackward0`` becomes ``Exp``."""
    return re.sub(r"Backward\d*$", "", node.name())


class SavedTensor:
    """A tensor saved for backward, with the version it had when it was saved.

    An op's own output is kept as its data and version counter, not as the tensor: the tensor's
    ``grad_fn`` is the saving node, so holding it would make a reference cycle that only the
    garbage collector can free. Unpacking rebuilds it with that node as its ``grad_fn``, as
    PyTorch does, so ``create_graph`` still differentiates through it.
    """

    __slots__ = ("tensor", "data", "counter", "version", "output_nr", "cls", "is_output")

    def __init__(self, tensor, is_output=False):
        self.counter = tensor._version_counter
        if self.counter.__class__ is not list and grad_mode._state[0]:
            raise RuntimeError(grad_mode.INFERENCE_SAVED)
        self.version = self.counter[0]
        self.data = tensor._data
        self.is_output = is_output
        if is_output:
            self.tensor = None
            self.output_nr = tensor._output_nr
            self.cls = tensor.__class__
        else:
            self.tensor = tensor

    def unpack(self, saved_for):
        current = self.counter[0]
        if current != self.version:
            self._raise_modified(saved_for, current)
        if self.tensor is not None:
            return self.tensor
        t = object.__new__(self.cls)
        t._data, t._version_counter = self.data, self.counter
        t._grad_fn, t._output_nr, t._requires_grad = saved_for, self.output_nr, True
        return t

    def _raise_modified(self, saved_for, current):
        grad_fn = saved_for if self.is_output else self.tensor._grad_fn
        output_nr = self.output_nr if self.is_output else self.tensor._output_nr
        where = f", which is output {output_nr} of {_op_name(grad_fn)}," if grad_fn is not None else ""
        if grad_mode.is_anomaly_enabled():
            hint = (" Hint: the backtrace further above shows the operation that failed to compute its "
                    "gradient. The variable in question was changed in there or anywhere later. Good luck!")
        else:
            hint = (" Hint: enable anomaly detection to find the operation that failed to compute its "
                    "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
        raise RuntimeError(
            "one of the variables needed for gradient computation has been modified by an inplace "
            f"operation: [{_type_description(self.data)}]{where} is at version {current}; "
            f"expected version {self.version} instead.{hint}"
        )

    def state(self):
        """'alive' or 'modified' (its tensor was changed in place since it was saved)."""
        return "alive" if self.counter[0] == self.version else "modified"


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


class _HookDict(dict):
    """A dict that can be weakly referenced by hook handles."""

    __slots__ = ("__weakref__",)


_PLAIN = frozenset((float, int, bool, type(None), str, tuple))


class Node:
    """Base class of every ``grad_fn``.

    Subclasses implement ``backward(self, *grads)`` returning one gradient per input edge (or a
    single gradient when there is one input), written in Tensor ops so that ``create_graph=True``
    records them. ``Node.apply`` is the engine's entry point.
    """

    __slots__ = ("next_functions", "_input_meta", "_saved", "_freed", "_attrs", "_sequence_nr",
                 "_pre_hooks", "_hooks", "_retain_grad_refs", "metadata", "__weakref__")

    num_outputs = 1
    supports_batched = True  # its backward also takes gradients with a leading batch dim

    def __init__(self):
        self._sequence_nr = next(_sequence)
        self._saved = None
        self._freed = False
        self._pre_hooks = None
        self._hooks = None
        self._retain_grad_refs = None

    # --- identity -----------------------------------------------------------------------
    def name(self):
        return type(self).__name__

    def __repr__(self):
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    # --- saved values ------------------------------------------------------------------
    def save(node, /, **values):
        """Saves tensors (version-checked) and scalars for backward; all are freed after backward."""
        saved = node._saved
        if saved is None:
            saved = node._saved = {}
        for key, value in values.items():
            # Tensors (anything with a version counter) are version-checked; numbers are kept as is.
            if value.__class__ in _PLAIN or getattr(value, "_version_counter", None) is None:
                saved[key] = value
            else:
                saved[key] = SavedTensor(value)

    def save_output(node, /, **values):
        """Saves outputs of the op itself (a version mismatch then names this node)."""
        if node._saved is None:
            node._saved = {}
        for key, value in values.items():
            node._saved[key] = SavedTensor(value, is_output=True)

    def saved(self, key):
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        value = self._saved[key]
        return value.unpack(self) if isinstance(value, SavedTensor) else value

    def saved_items(self):
        """Yields (name, SavedTensor or value, state) for the graph view; state is alive/freed/modified."""
        if self._saved is None:
            return
        for key, value in self._saved.items():
            if self._freed:
                yield key, value, "freed"
            elif isinstance(value, SavedTensor):
                yield key, value, value.state()
            else:
                yield key, value, "alive"

    def _release(self):
        if self._saved is not None:
            self._freed = True

    # --- hooks --------------------------------------------------------------------------
    def register_prehook(self, fn, output_nr=0):
        """Registers ``fn(grad) -> grad or None``, run on the gradient of output ``output_nr``."""
        if self._pre_hooks is None:
            self._pre_hooks = _HookDict()
        handle = RemovableHandle(self._pre_hooks)
        self._pre_hooks[handle.id] = (output_nr, fn)
        return handle

    def register_hook(self, fn):
        """Registers ``fn(grad_inputs, grad_outputs)``, run after this node computed its gradients."""
        if self._hooks is None:
            self._hooks = _HookDict()
        handle = RemovableHandle(self._hooks)
        self._hooks[handle.id] = fn
        return handle

    # --- engine entry point ----------------------------------------------------------------
    def apply(self, grads):
        """Runs ``backward`` on the list of output gradients; returns a list, one per input edge."""
        if self.num_outputs == 1:
            out = self.backward(grads[0])
        else:
            out = self.backward(*grads)
        if type(out) is not tuple:
            out = (out,)
        return list(out)


class AccumulateGrad(Node):
    """The node at a leaf: adds the incoming gradient into ``variable.grad``."""

    __slots__ = ("variable", "_post_hooks")

    def __init__(self, variable):
        super().__init__()
        self._sequence_nr = float("inf")  # leaves accumulate as soon as they are ready, as in PyTorch
        self.variable = variable
        self.next_functions = ()
        self._input_meta = ()
        self._post_hooks = None

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def apply(self, grads):
        grad = grads[0]
        var = self.variable
        if var is None or grad is None:
            return []
        if var._grad is None:
            # A fresh copy, so that two leaves fed by one AddBackward never share a buffer that a
            # later in-place accumulation would then change for both; under create_graph keep the graph.
            if grad_mode.is_grad_enabled():
                # PyTorch copies into a fresh buffer, so the graph shows CopyBackwards.
                from .ops.inplace import copy_
                var._grad = copy_(grad._detached_copy(), grad)
            else:
                var._grad = grad._detached_copy()
        elif grad_mode.is_grad_enabled():
            var._grad = var._grad + grad
        else:
            var._grad._accumulate_(grad)
        if self._post_hooks:
            for fn in list(self._post_hooks.values()):
                fn(var)
        return []


class GraphRoot(Node):
    """Virtual node that feeds the root gradients into the graph."""

    __slots__ = ("_grads",)

    def __init__(self, edges, grads):
        super().__init__()
        self.next_functions = tuple(edges)
        self._input_meta = None
        self._grads = grads

    def apply(self, grads):
        return list(self._grads)
