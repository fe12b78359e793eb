"""Turns the tensors in a namespace into plain JSON for the graph view and the gradient panel.

Walks ``grad_fn.next_functions`` iteratively (no recursion: Pyodide's stack is small). Node ids
are derived from object identities, so the same object keeps its id across runs in a session.

The JSON shape::

    {"nodes": [...], "edges": [...], "tensors": [...], "truncated": null or {...}}

- nodes: ``{"id", "kind": "tensor" | "grad_fn" | "accumulate" | "collapsed" | "cut", ...}``
- edges, in backward direction: tensor -> its grad_fn (``"grad_fn"``), grad_fn -> each input's
  node in input order, duplicates kept (``"next"``, with ``input_nr``), AccumulateGrad -> its
  leaf (``"variable"``), detached tensor -> the tensor it came from (``"detached"``).
- tensors: one row per named tensor for the gradient panel.
"""
import inspect
import textwrap

import numpy as np

from ..formatting import array_str
from ..node import AccumulateGrad, Node, SavedTensor
from .._tensor import Tensor

DEFAULT_BUDGET = 2000
PREVIEW_ELEMENTS = 64
PREVIEW_CHARS = 600
_MAX_WALK = 200_000  # beyond this many nodes the walk itself stops, so export stays bounded


def named_tensors(namespace):
    """``(name, tensor)`` pairs from a namespace: tensors, and the parameters of nn.Modules."""
    pairs = []
    for name, value in namespace.items():
        if name.startswith("_"):
            continue
        if isinstance(value, Tensor):
            pairs.append((name, value))
        elif hasattr(value, "named_parameters") and callable(value.named_parameters):
            try:
                pairs.extend((f"{name}.{p}", t) for p, t in value.named_parameters())
            except Exception:  # a half-built user Module must not break the view
                continue
    return pairs


def preview(data):
    """A short PyTorch-style text of an ndarray, and its values when small."""
    out = {"text": array_str(data, 0) if data.size <= 4 * PREVIEW_ELEMENTS else
           array_str(data.reshape(-1)[:PREVIEW_ELEMENTS], 0)[:-1] + ", ...]"}
    if len(out["text"]) > PREVIEW_CHARS:
        out["text"] = out["text"][:PREVIEW_CHARS] + " ..."
    if data.size <= PREVIEW_ELEMENTS:
        out["values"] = np.asarray(data, dtype=np.float64).tolist() if data.dtype.kind in "fiub" else None
    return out


def grad_reason(t):
    """Why ``t.grad`` is None, in the words the gradient panel shows."""
    if t._grad is not None:
        return None
    if not t._requires_grad:
        return "does not require grad"
    if t._grad_fn is not None and not t._retains_grad:
        return "non-leaf, call retain_grad()"
    return "not computed yet"


def _tensor_row(names, t):
    return {
        "id": f"t{id(t)}", "names": names, "shape": list(t._data.shape), "dtype": repr(t.dtype),
        "requires_grad": t._requires_grad, "is_leaf": t._grad_fn is None, "retains_grad": t._retains_grad,
        "grad_fn": type(t._grad_fn).__name__ if t._grad_fn is not None else None,
        "version": t._version_counter[0], "value": preview(t._data),
        "grad": preview(t._grad._data) if t._grad is not None else None, "grad_reason": grad_reason(t),
    }


_formula_cache = {}


def formula(node_cls):
    """The source of a node class's ``backward``: the formula the engine runs for it."""
    if node_cls not in _formula_cache:
        method = getattr(node_cls, "backward", None)
        try:
            text = inspect.getsource(method) if method is not None else ""
        except (OSError, TypeError):
            text = ""
        _formula_cache[node_cls] = textwrap.dedent(text).strip("\n") if text else ""
    return _formula_cache[node_cls]


def _saved_entries(node, values=False):
    """Name, state and shape of each saved value; ``values`` adds short previews (for a click)."""
    entries = []
    for key, value, state in node.saved_items():
        entry = {"name": key, "state": state}
        if isinstance(value, SavedTensor):
            entry["shape"] = list(value.sizes())
            entry["version"] = value.version
            # Under saved-tensor hooks only the packed object is kept, so there is no value to show.
            if values and state != "freed" and value.array is not None and value.array.size <= 16:
                entry["value"] = preview(value.array)["text"]
        elif values:
            entry["value"] = repr(value)
        entries.append(entry)
    return entries


def _hook_count(node):
    """Tensor hooks on its outputs plus the node's own pre- and post-hooks."""
    return len(node._pre_hooks or ()) + len(node._node_pre_hooks or ()) + len(node._hooks or ())


def _node_json(node, values=False):
    if isinstance(node, AccumulateGrad):
        return {"id": f"f{id(node)}", "kind": "accumulate", "name": "AccumulateGrad",
                "variable": f"t{id(node.variable)}", "hooks": _hook_count(node)}
    return {"id": f"f{id(node)}", "kind": "grad_fn", "name": type(node).__name__,
            "saved": _saved_entries(node, values), "freed": bool(node._freed), "hooks": _hook_count(node),
            "retains_grad": sorted((node._retain_grad_refs or {}).keys())}


def _walk(roots):
    """Breadth-first over grad_fn nodes from ``roots``; returns (order, truncated_flag)."""
    order, seen, queue, head = [], set(roots), list(roots), 0
    while head < len(queue):
        node = queue[head]
        head += 1
        order.append(node)
        if len(order) >= _MAX_WALK:
            return order, True
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return order, False


def _chains(order, pinned):
    """Maximal runs of nodes with exactly one parent and one input that nothing names."""
    parents = {}
    for node in order:
        for nxt, _ in node.next_functions:
            if nxt is not None:
                parents[nxt] = parents.get(nxt, 0) + 1
    inner = {n for n in order if n not in pinned and parents.get(n, 0) == 1 and not isinstance(n, AccumulateGrad)
             and sum(1 for nxt, _ in n.next_functions if nxt is not None) == 1}
    runs, taken = [], set()
    for node in order:
        if node not in inner or node in taken:
            continue
        run = [node]
        taken.add(node)
        nxt = next(n for n, _ in node.next_functions if n is not None)
        while nxt in inner and nxt not in taken:
            run.append(nxt)
            taken.add(nxt)
            nxt = next(n for n, _ in nxt.next_functions if n is not None)
        if len(run) >= 3:
            runs.append(run)
    return runs


def _no_provenance(node):
    return {"line": None, "order": None}


def _tensor_provenance(t, provenance):
    """A non-leaf tensor was made where its grad_fn was; a leaf where the timeline first saw it."""
    if provenance is None:
        return {"line": None}
    if t._grad_fn is not None:
        return {"line": provenance.of(t._grad_fn)["line"]}
    return {"line": getattr(provenance, "tensor_lines", {}).get(id(t))}


def _accumulate_provenance(node, provenance):
    """An AccumulateGrad is made lazily, by the first op that reads its leaf: it takes the leaf's
    line, the one the editor can link it to (no order: no op recorded it)."""
    if provenance is None or not isinstance(node, AccumulateGrad) or node.variable is None:
        return {}
    return _tensor_provenance(node.variable, provenance)


def export(namespace, budget=DEFAULT_BUDGET, provenance=None):
    """The graph of every named tensor in ``namespace``, as JSON-able dicts.

    Args:
        namespace (dict): variable names to values (e.g. the playground session's globals).
        budget (int, optional): the most nodes to emit. Above it, chains of single-input nodes
            are collapsed into one node each, then the rest is cut, and ``truncated`` says so.
            Defaults to 2000.
        provenance (optional): gives every node its editor ``line`` and execution ``order``
            (``provenance.Provenance``; a tensor's line is its grad_fn's, or where a timeline saw
            it first bound). Without it they are None.

    Returns:
        dict: ``{"nodes", "edges", "tensors", "truncated"}``.
    """
    named = named_tensors(namespace)
    by_tensor = {}
    for name, t in named:
        by_tensor.setdefault(id(t), (t, []))[1].append(name)
    tensors = [t for t, _ in by_tensor.values()]

    roots = []
    for t in tensors:
        if t._grad_fn is not None:
            roots.append(t._grad_fn)
        elif t._accumulator is not None:
            roots.append(t._accumulator)
    roots = list(dict.fromkeys(roots))
    order, walk_cut = _walk(roots)

    collapsed = {}  # node -> id of the collapsed block that replaces it
    blocks = []
    if len(order) + len(tensors) > budget:
        for run in _chains(order, set(roots)):
            block_id = f"c{id(run[0])}"
            counts = {}
            for n in run:
                counts[type(n).__name__] = counts.get(type(n).__name__, 0) + 1
            blocks.append({"id": block_id, "kind": "collapsed", "count": len(run), "ops": counts,
                           "name": f"{len(run)} nodes"})
            for n in run:
                collapsed[n] = block_id

    of = provenance.of if provenance is not None else _no_provenance
    nodes = [{"kind": "tensor", **_tensor_row(names, t), **_tensor_provenance(t, provenance)}
             for t, names in by_tensor.values()]
    shown = [n for n in order if n not in collapsed]
    room = max(0, budget - len(nodes) - len(blocks))
    cut = shown[room:]
    shown = shown[:room]
    shown_set = set(shown)
    nodes.extend({**_node_json(n), **of(n), **_accumulate_provenance(n, provenance)} for n in shown)
    nodes.extend(blocks)

    def ref(node):
        if node in collapsed:
            return collapsed[node]
        return f"f{id(node)}" if node in shown_set else None

    edges = []
    for t, _ in by_tensor.values():
        if t._grad_fn is not None and ref(t._grad_fn):
            edges.append({"from": f"t{id(t)}", "to": ref(t._grad_fn), "kind": "grad_fn", "output_nr": t._output_nr})
        src = t._detached_from
        if src is not None and id(src) in by_tensor:
            edges.append({"from": f"t{id(t)}", "to": f"t{id(src)}", "kind": "detached"})
    for node in order:
        a = ref(node)
        if a is None:
            continue
        for input_nr, (nxt, output_nr) in enumerate(node.next_functions):
            b = ref(nxt) if nxt is not None else None
            if b is None or (a == b and node in collapsed):
                continue
            edges.append({"from": a, "to": b, "kind": "next", "input_nr": input_nr, "output_nr": output_nr})
        if isinstance(node, AccumulateGrad) and id(node.variable) in by_tensor:
            edges.append({"from": a, "to": f"t{id(node.variable)}", "kind": "variable"})

    truncated = None
    if collapsed or cut or walk_cut:
        truncated = {"total": len(order) + len(tensors), "shown": len(nodes), "collapsed": len(collapsed),
                     "cut": len(cut), "budget": budget, "autograd_nodes": len(order),
                     "reason": f"the graph has {len(order)} autograd nodes, more than the budget of {budget}"}
        if cut:
            nodes.append({"id": "cut", "kind": "cut", "name": f"{len(cut)} more nodes not shown", "count": len(cut)})
    return {"nodes": nodes, "edges": edges, "tensors": [_tensor_row(names, t) for t, names in by_tensor.values()],
            "truncated": truncated}


def describe_node(node):
    """Details for a clicked node: its saved tensors, hooks and the backward formula it runs."""
    info = _node_json(node, values=True)
    if isinstance(node, Node) and not isinstance(node, AccumulateGrad):
        info["formula"] = formula(type(node))
        info["next_functions"] = [[type(n).__name__ if n is not None else None, nr] for n, nr in node.next_functions]
    return info
