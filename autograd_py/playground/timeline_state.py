"""What changed in a run's variables since the last step: the ``vars``/``grads``/``saved`` of a delta.

``StateWatch`` is asked once per executed statement, so it does as little as it can for what did
not change: a name keeps the kind of its value's type (tensor, module, other), and a tensor a key
of ids, version counters and, for small tensors, bytes; only a tensor whose key changed is
summarised again. Saved tensors are looked at only when the timeline asks (after a backward pass,
or when a named tensor's version moved).

Limits: a write that bypasses the version counter (``t.data[0] = 1``, NumPy views) shows only for
tensors of at most ``PREVIEW_ELEMENTS`` values; function locals are not watched.
"""
import weakref

import numpy as np

from .._tensor import Tensor
from ..node_saved import saved_map, saved_states
from ..saved_tensor import SavedTensor

PREVIEW_ELEMENTS = 64
# First values kept of a larger tensor (with min/max/mean): as many as the page shows of one
# (timeline_state.js's preview); a float costs the JSON a repr, about a microsecond each.
TRUNCATED_VALUES = 6
SAVED_WATCH = 2000  # newest nodes with saved tensors whose states are followed
_TENSOR, _MODULE = 1, 2
_UNBOUND = object()


def small(data):
    """A copy small enough to keep per step: all values up to ``PREVIEW_ELEMENTS``, else the first
    ``TRUNCATED_VALUES`` and min/max/mean (floats; only the shape for non-numeric dtypes)."""
    kind = data.dtype.kind
    if not data.ndim and kind == "f":  # a scalar loop's tensors (micrograd's): without the reshape
        return {"shape": [], "values": [data.item()]}
    shape = list(data.shape)
    if kind not in "fiub":
        return {"shape": shape}
    flat = data.reshape(-1)
    size = flat.size
    # A float array's tolist gives the float64 values exactly (no float64 copy needed first).
    if size <= PREVIEW_ELEMENTS:
        return {"shape": shape, "values": (flat if kind == "f" else flat.astype(np.float64)).tolist()}
    # In the tensor's own dtype: a float64 copy of a large tensor costs more than the rest.
    head = flat[:TRUNCATED_VALUES]
    return {"shape": shape, "values": (head if kind == "f" else head.astype(np.float64)).tolist(),
            "truncated": True, "min": float(_MIN(flat)), "max": float(_MAX(flat)), "mean": _sum(flat) / size}


_MIN, _MAX = np.minimum.reduce, np.maximum.reduce


def _key(t):
    """Changes whenever what a step shows of ``t`` may have: ids and version counters, and the
    bytes of small tensors (a write through ``t.data`` bypasses the counter)."""
    d, g = t._data, t._grad
    return (id(t), id(d), t._version_counter[0], d.tobytes() if d.size <= PREVIEW_ELEMENTS else None,
            t._requires_grad, id(t._grad_fn),
            None if g is None else (id(g), g._version_counter[0], id(gd := g._data),
                                    gd.tobytes() if gd.size <= PREVIEW_ELEMENTS else None))


def _sum(flat):
    """The sum of a large 1-d array as a float. A contiguous float32/64 array of more than a few
    thousand values goes through einsum's SIMD loop: about 2.5x faster than add.reduce's pairwise
    sum on W2's 100,352-value layer (BLAS's dot with ones, used before, read a second array as
    large), with float32's accuracy, as PyTorch's float32 sum has."""
    if flat.size > 4096 and flat.dtype.kind == "f" and flat.dtype.itemsize in (4, 8) and flat.flags.c_contiguous:
        return float(np.einsum("i->", flat))
    return float(np.add.reduce(flat, dtype=np.int64 if flat.dtype.kind == "b" else None))


def _root(data):
    """The array that owns ``data``'s memory (``data`` itself unless it is a view)."""
    while isinstance(data.base, np.ndarray):
        data = data.base
    return data


def _kind(name, value):
    """``_TENSOR``, ``_MODULE`` or 0 (not watched)."""
    if name.startswith("_"):  # (``scan`` classifies a type once, with the name "")
        return 0
    if isinstance(value, Tensor):
        return _TENSOR
    try:
        return _MODULE if callable(getattr(value, "named_parameters", None)) else 0
    except Exception:  # a property of the user's that raises
        return 0


def _parameters(name, module):
    try:
        return [(f"{name}.{p}", t) for p, t in module.named_parameters()]
    except Exception:  # a half-built user Module must not break the view
        return []


def saved_then(node):
    """What a node's details show of its saved values, kept from when it was made, for when the node
    is gone (``timeline_past``): a saved tensor's shape and version and, when it has at most 16 values
    (``graph._saved_entries`` shows no more), a copy of them; another value itself when it is small
    (a copy of an array: its repr is made only if asked for: index arrays' reprs cost ~100 us)."""
    out = {}
    for key, value in saved_map(node).items():
        if value.__class__ is SavedTensor:
            array = value.array
            if value.hooks is None and array is not None:  # (``SavedTensor.sizes``, inline)
                out[key] = (array.shape, value.version, array.copy() if array.size <= 16 else None)
            else:  # packed by saved-tensor hooks: no values to show, as for a live node
                out[key] = (value.sizes(), value.version, None)
        else:
            out[key] = [_kept(value)]  # (a list: a saved tuple stays apart from the tensor's triple)
    return out


_TOO_BIG = object()  # a saved value not kept (its repr is not shown for a gone node)


def _kept(value, inner=False):
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.ndarray):
        return value.copy() if value.size <= 256 else _TOO_BIG
    if not inner and type(value) in (tuple, list) and len(value) <= 16:
        items = [_kept(v, True) for v in value]
        return _TOO_BIG if any(v is _TOO_BIG for v in items) else type(value)(items)
    return _TOO_BIG


def kept_text(kept):
    """The repr ``graph._saved_entries`` shows of a saved value ``saved_then`` kept, or None."""
    return None if kept is _TOO_BIG else repr(kept)


class NodeIds:
    """Node ids unique over a run: ``f<address>``, as ``graph.export`` names nodes, and
    ``f<address>.<n>`` for a node made where a dead one was (a loop's next iteration often is).

    ``renames`` gives every node still alive its plain id back, for the export.
    """

    def __init__(self):
        self.current = {}  # address -> (id, weakref to the node)
        self.reused = {}  # address -> ids issued there after the first

    def __call__(self, node):
        address = id(node)
        known = self.current.get(address)
        if known is not None and known[1]() is node:
            return known[0]
        if known is None:
            nid = f"f{address}"
        else:
            self.reused[address] = self.reused.get(address, 0) + 1
            nid = f"f{address}.{self.reused[address]}"
        self.current[address] = (nid, weakref.ref(node))
        return nid

    def renames(self):
        """``{id: new id}`` so that each live node has its plain id (empty when none needs it)."""
        out = {}
        for address in self.reused:
            nid, ref = self.current[address]
            plain = f"f{address}"
            if nid != plain and ref() is not None:
                out[nid], out[plain] = plain, f"{plain}.0"
        return out


_DTYPE_TEXT = {}  # NumPy dtype -> the repr of the tensor dtype it stands for


def summary(t, value, grad, node_id):
    """The row a step keeps of a named tensor, given ``small`` of its data and of its ``.grad``."""
    fn = t._grad_fn
    text = _DTYPE_TEXT.get(t._data.dtype)  # (``t.dtype`` follows its array's)
    if text is None:
        text = _DTYPE_TEXT[t._data.dtype] = repr(t.dtype)
    fid = None
    if fn is not None:  # ``node_id(fn)``, its usual case inline: a node named before
        known = node_id.current.get(id(fn))
        fid = known[0] if known is not None and known[1]() is fn else node_id(fn)
    # ``value``'s shape list is the tensor's: one list fewer kept per summary
    return {"id": f"t{id(t)}", "shape": value["shape"], "dtype": text,
            "requires_grad": t._requires_grad, "grad_fn": type(fn).__name__ if fn is not None else None,
            "grad_fn_id": fid, "version": t._version_counter[0], "value": value, "grad": grad}


class StateWatch:
    """Follows the named tensors of ``namespace`` and the saved tensors of watched nodes.

    Args:
        namespace (dict): the run's globals: tensors, and the parameters of nn.Modules, by name.
        tensor_lines (dict): filled with ``id(tensor) -> line`` of the step that first showed it.
        node_id (NodeIds): names the nodes.
    """

    def __init__(self, namespace, tensor_lines, node_id):
        self.namespace = namespace
        self.node_id = node_id
        self.tensor_lines = tensor_lines
        self.kinds = {}  # name -> (type of its value, kind), for ``_scan_names``
        self.type_kinds = {}  # type -> kind: each type is classified once
        self.modules = set()  # names whose parameters were shown (``model`` of ``model.weight``)
        self.var_keys = {}  # tensor name -> key (see ``scan``)
        # tensor name -> (id of the tensor, of its memory's root, of its version counter, of its
        # array), as ``var_keys`` (shared by the names of a tensor: ``_changed``'s table keeps it)
        self.memory = {}
        self.known = {}  # id(tensor) -> what ``_changed`` last summarised of it
        self.watched = []  # weakrefs to nodes with saved tensors
        self.saved_last = {}

    def watch(self, node):
        """Follows the saved tensors of ``node`` (a new node that has some)."""
        self.watched.append(weakref.ref(node))

    def scan(self, delta, line, names=None):
        """Puts changed names in ``delta["vars"]`` and changed grads in ``delta["grads"]``.

        Args:
            names (tuple, optional): only these names can have changed (a for loop's header).

        Returns:
            bool: whether a named tensor's version moved (its saved copies may be stale now).
        """
        if names is not None:
            return self._scan_names(delta, line, names)
        type_kinds, var_keys = self.type_kinds, self.var_keys
        moved = False
        found = 0
        limit = PREVIEW_ELEMENTS
        for name, value in list(self.namespace.items()):
            kind = type_kinds.get(type(value))
            if kind is None:
                kind = type_kinds[type(value)] = _kind("", value)
            if kind == _TENSOR and name[:1] != "_":
                found += 1
                d, g = value._data, value._grad  # _key, inline: this loop runs for every name at every step
                key = (id(value), id(d), value._version_counter[0], d.tobytes() if d.size <= limit else None,
                       value._requires_grad, id(value._grad_fn),
                       None if g is None else (id(g), g._version_counter[0], id(gd := g._data),
                                               gd.tobytes() if gd.size <= limit else None))
                if var_keys.get(name) != key:
                    moved = self._changed(name, value, key, delta, line) or moved
            elif kind == _MODULE and name[:1] != "_":
                for pname, t in _parameters(name, value):
                    found += 1
                    key = _key(t)
                    if var_keys.get(pname) != key:
                        moved = self._changed(pname, t, key, delta, line) or moved
        if len(var_keys) != found:  # a name was deleted, or bound to something else
            self._unbound(delta)
        return moved

    def unrecorded_nodes(self, rows, limit):
        """Nodes reachable from the named tensors that have no row in ``rows`` (node id -> row), in
        the order a walk from the names meets them, at most ``limit`` (made while the recorder rested)."""
        found, seen = [], set()
        stack = [v._grad_fn for v in self.namespace.values() if isinstance(v, Tensor)]
        while stack and len(found) < limit:  # no recursion: a graph may be deep
            node = stack.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            if self.node_id(node) not in rows:
                found.append(node)
            stack.extend(n for n, _ in node.next_functions)
        return found

    def _scan_names(self, delta, line, names):
        moved = False
        namespace, kinds, var_keys = self.namespace, self.kinds, self.var_keys
        for name in names:
            value = namespace.get(name, _UNBOUND)
            kind = kinds.get(name)
            if kind is None or kind[0] is not type(value):
                kind = kinds[name] = (type(value), _kind(name, value))
            kind = kind[1]
            if name in self.modules:  # it named a module: its parameters' names may go
                kind = _MODULE
            if kind == _TENSOR:
                d, g = value._data, value._grad  # (``_key``, inline)
                key = (id(value), id(d), value._version_counter[0], d.tobytes() if d.size <= PREVIEW_ELEMENTS else None,
                       value._requires_grad, id(value._grad_fn),
                       None if g is None else (id(g), g._version_counter[0], id(gd := g._data),
                                               gd.tobytes() if gd.size <= PREVIEW_ELEMENTS else None))
                old = var_keys.get(name)
                if old != key:
                    # The same tensor changed (``p -= 1``, ``p.grad = None``): its other names too.
                    if old is not None and old[0] == key[0] and not self._other_names(name, value, key, delta, line, names):
                        return self.scan(delta, line)
                    moved = self._changed(name, value, key, delta, line) or moved
            elif kind == _MODULE:
                return self.scan(delta, line)  # a module's parameters: look at everything
            elif name in var_keys:
                del var_keys[name]
                self.memory.pop(name, None)
                delta["vars"][name] = None
        return moved

    def _other_names(self, name, t, key, delta, line, names):
        """Updates the other names of tensor ``t``, changed in place by a statement that binds only
        ``names``; False (a full look is needed) when another named tensor may share its memory (a
        view, ``.data``, ``detach``) or modules' parameters are watched (their names are not in the
        namespace).

        The names the statement does not bind hold what the last look saw: ``memory`` has their
        tensors' ids and memory roots, kept as their keys change, so no root is walked here."""
        if self.modules:
            return False
        root, counter = id(_root(t._data)), id(t._version_counter)
        tid, var_keys, namespace = key[0], self.var_keys, self.namespace
        same = []
        for other, (otid, oroot, ocounter, _) in self.memory.items():
            if other == name:
                continue
            if other in names:  # bound by this statement: as it is now
                value = namespace.get(other)
                if value is t:
                    same.append(other)
                elif isinstance(value, Tensor) and (id(value._version_counter) == counter
                                                    or id(_root(value._data)) == root):
                    return False
            elif otid == tid:
                same.append(other)
            elif oroot == root or ocounter == counter:
                return False
        for other in same:
            if var_keys.get(other) != key:
                self._changed(other, t, key, delta, line)
        return True

    def _changed(self, name, t, key, delta, line):
        var_keys = self.var_keys
        old = var_keys.get(name)
        if old is None and "." in name:
            self.modules.add(name.split(".", 1)[0])
        var_keys[name] = key
        tid = key[0]
        moved = old is not None and old[0] == tid and old[2] != key[2]
        # A tensor summarised before under this or another name is summarised again only for what
        # changed (``p = w`` costs a lookup): [key, summary, data key, small(data), grad key,
        # small(grad), its ``memory`` row]
        known = self.known.get(tid)
        if old is None or old[0] != tid or old[1] != key[1]:  # another tensor, or other memory
            memory = known[6] if known is not None else None
            if memory is None or memory[3] != key[1]:
                memory = (tid, id(_root(t._data)), id(t._version_counter), key[1])
                if known is not None:
                    known[6] = memory
            self.memory[name] = memory
        if known is None:
            known = self.known[tid] = [None, None, None, None, None, None, self.memory.get(name)]
            self.tensor_lines.setdefault(tid, line)
            if len(self.known) > 2 * len(var_keys) + 64:  # forget tensors no name holds now
                named = {k[0] for k in var_keys.values()}
                self.known = {i: v for i, v in self.known.items() if i in named}
                self.known[tid] = known
        elif known[0] == key:
            delta["vars"][name] = known[1]
            return moved
        gkey = key[6]
        if known[4] != gkey:  # reported once per tensor, whatever its names
            known[4], known[5] = gkey, None if gkey is None else small(t._grad._data)
            delta["grads"][f"t{tid}"] = known[5]
        vkey = key[1:4]
        if known[2] != vkey:
            known[2], known[3] = vkey, small(t._data)
        known[0], known[1] = key, summary(t, known[3], known[5], self.node_id)
        delta["vars"][name] = known[1]
        return moved

    def _unbound(self, delta):
        now = set()
        for name, value in self.namespace.items():
            kind = self.type_kinds.get(type(value)) if name[:1] != "_" else None
            if kind == _TENSOR:
                now.add(name)
            elif kind == _MODULE:
                now.update(pname for pname, _ in _parameters(name, value))
        for name in [n for n in self.var_keys if n not in now]:
            del self.var_keys[name]
            self.memory.pop(name, None)
            delta["vars"][name] = None  # unbound (``del``), or no longer a tensor

    def saved_changes(self):
        """``{node id: {saved name: state}}`` of the watched nodes' saved tensors that changed."""
        changes = {}
        live = []
        for ref in self.watched[-SAVED_WATCH:]:
            node = ref()
            if node is None:
                continue
            nid = self.node_id(node)
            states = saved_states(node)
            last = self.saved_last.get(nid)
            if last is None:
                diff = {k: s for k, s in states.items() if s != "alive"}
            elif states == last:  # (most nodes, most times)
                diff = None
            else:
                diff = {k: s for k, s in states.items() if last.get(k) != s}
            if diff:
                changes[nid] = diff
            self.saved_last[nid] = states
            if not node._freed:  # a freed node's states are final (a backward pass freed them)
                live.append(ref)
        self.watched = live
        return changes
