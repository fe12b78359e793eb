"""What the playground's "See autograd" views show, computed in Python for the page to render.

The page holds no autograd logic: it draws the JSON made here and by ``graph.export``. This
module records the steps of the last backward pass of a command (``PassRecorder``), keeps the
history of every named tensor's ``.grad`` across passes and commands (``GradHistory``), and
looks nodes up for the details panel (``describe``); ``graph_errors`` finds where on the graph an
error belongs (``failed_node``). Nothing here recurses over a graph: Pyodide's stack is small.

Example::

    >>> recorder = PassRecorder()
    >>> previous = engine.set_listener(recorder)
    >>> (x * x).sum().backward()
    >>> engine.set_listener(previous)
    >>> [s.get("name") for s in recorder.steps_json()["steps"]]
    [None, 'SumBackward0', 'MulBackward0', None, None]
"""
import math
import weakref

import numpy as np

from . import graph, trace
from .graph_errors import failed_node, first_freed_node, raising_node  # noqa: F401 (re-exported)
from ..node import AccumulateGrad

STEP_LIMIT = 2000  # steps kept per pass; a longer pass is cut, and the page says how much
HISTORY_ENTRIES = 12  # history entries kept per tensor (the newest)
HISTORY_MAX_ELEMENTS = 4096  # larger tensors get no history: copying them every pass costs too much


# ---- JSON ----------------------------------------------------------------------------------

def json_safe(value):
    """``value`` with every non-finite float replaced by ``"nan"``, ``"inf"`` or ``"-inf"``.

    ``JSON.parse`` rejects ``NaN`` and ``Infinity``, and gradients are often inf or nan. The walk
    uses an explicit stack, so deep structures cannot overflow Python's.
    """
    def fix(v):
        if isinstance(v, float) and not math.isfinite(v):
            return "nan" if v != v else ("inf" if v > 0 else "-inf")
        return v

    root = [value]
    stack = [root]
    while stack:
        container = stack.pop()
        keys = container.keys() if isinstance(container, dict) else range(len(container))
        for k in keys:
            v = container[k]
            if isinstance(v, (dict, list)):
                stack.append(v)
            elif isinstance(v, tuple):
                container[k] = list(v)
                stack.append(container[k])
            elif isinstance(v, float):
                container[k] = fix(v)
    return root[0]


# ---- finding nodes --------------------------------------------------------------------------

def _roots_of(namespace):
    roots = []
    for _, t in graph.named_tensors(namespace):
        if t._grad_fn is not None:
            roots.append(t._grad_fn)
        elif t._accumulator is not None:
            roots.append(t._accumulator)
    return roots


def reachable_nodes(namespace, extra_roots=()):
    """Every autograd node reachable from the named tensors, by the id the graph JSON uses."""
    found = {}
    queue = list(_roots_of(namespace)) + [n for n in extra_roots if n is not None]
    head = 0
    while head < len(queue):
        node = queue[head]
        head += 1
        key = f"f{id(node)}"
        if key in found:
            continue
        found[key] = node
        for nxt, _ in node.next_functions:
            if nxt is not None and f"f{id(nxt)}" not in found:
                queue.append(nxt)
    return found


def describe(namespace, node_id):
    """Details of one node for the click panel: ``graph.describe_node`` plus the leaf's names.

    Returns:
        dict: ``{"ok": True, "node": {...}}`` or ``{"ok": False, "error": {...}}``.
    """
    node = reachable_nodes(namespace).get(str(node_id))
    if node is None:
        return {"ok": False, "error": {"type": "NotFound", "message": f"no node {node_id} in the current graph"}}
    info = graph.describe_node(node)
    if isinstance(node, AccumulateGrad) and node.variable is not None:
        names = [name for name, t in graph.named_tensors(namespace) if t is node.variable]
        info["variable_names"] = names
        info["variable_grad"] = (graph.preview(node.variable._grad._data)
                                 if node.variable._grad is not None else None)
    return {"ok": True, "node": info}


# ---- the steps of the last backward pass ------------------------------------------------------

def _freeze(t):
    return None if t is None else t._data.copy()


class _Frozen:
    """What ``trace`` formats: an object with ``_data``, here a copy taken at the step."""

    __slots__ = ("_data",)

    def __init__(self, data):
        self._data = data


def _thaw(data):
    return None if data is None else _Frozen(data)


def _thaw_event(event):
    kind = event["event"]
    if kind == "node":
        return {**event, "grads_in": [_thaw(g) for g in event["grads_in"]],
                "grads_out": [_thaw(g) for g in event["grads_out"]]}
    if kind in ("accumulate", "hook"):
        return {**event, "grad": _thaw(event["grad"])}
    return event


class PassRecorder:
    """An engine listener that keeps the raw steps of the newest top-level backward pass.

    Steps are stored with copies of their gradients and turned into JSON only when asked
    (``steps_json``): formatting every gradient of every pass of a training loop would make it
    many times slower, and the page shows only the last pass.

    Args:
        line_finder (callable, optional): returns ``(filename, lineno)`` of the user's code that
            started a pass, or None.
        on_boundary (callable, optional): called as ``on_boundary(when, recorder)`` with ``when``
            ``"before"`` or ``"after"`` around every top-level pass (the grad history uses it).
        limit (int): steps kept per pass.
        keeper (timeline_passes.KeptPasses, optional): offered every finished top-level pass, to
            keep the steps of earlier passes too (the timeline opens any pass in the step-through).
    """

    def __init__(self, line_finder=None, on_boundary=None, limit=STEP_LIMIT, keeper=None):
        self.line_finder = line_finder
        self.on_boundary = on_boundary
        self.limit = limit
        self.keeper = keeper
        self.passes = 0
        self.depth = 0
        self.events = []
        self.count = 0
        self.roots = []
        self.where = None

    def __call__(self, event):
        kind = event["event"]
        if kind == "begin":
            if self.depth == 0:
                self.passes += 1
                self.events, self.count = [], 0
                self.roots = [f"f{r}" for r in event.get("roots", ())]
                self.where = self.line_finder() if self.line_finder else None
                self._boundary("before")
            self.depth += 1
        self.count += 1
        if len(self.events) < self.limit:
            self.events.append(self._copy(event))
        if kind == "end":
            self.depth = max(0, self.depth - 1)
            if self.depth == 0:
                if self.keeper is not None:
                    self.keeper.offer(self)
                self._boundary("after")

    def _boundary(self, when):
        if self.on_boundary is not None:
            try:
                self.on_boundary(when, self)
            except Exception:  # a view must never break the user's backward
                pass

    @staticmethod
    def _copy(event):
        """What is kept of an engine event: the engine makes a new dict for each call, so it is
        kept itself, with copies of its gradients in place of the tensors (a later in-place change,
        ``y.grad.zero_()`` on a retained grad, must not reach them). No reference to a gradient is
        kept: the engine adds into a gradient in place when nothing else holds it (its version)."""
        kind = event["event"]
        freeze = _freeze
        if kind == "node":
            event["grads_in"] = [freeze(g) for g in event["grads_in"]]
            event["grads_out"] = [freeze(g) for g in event["grads_out"]]
        elif kind in ("accumulate", "hook"):
            event["grad"] = freeze(event["grad"])
            if kind == "hook":
                event["replaced_with"] = None if event["replaced_with"] is None else True
        return event

    def edge_nodes(self):
        """Node objects the recorded steps point at (to find nodes no name reaches)."""
        return [n for e in self.events if e["event"] == "node" for n, _ in e["edges"] if n is not None]

    def steps_json(self, error_node=None):
        """The newest pass as JSON: ``{"pass", "line", "roots", "steps", "dropped"}``, or None."""
        if not self.passes:
            return None
        steps = [trace._to_json(_thaw_event(e)) for e in self.events]
        if steps and steps[0]["event"] == "begin":
            steps[0]["roots"] = self.roots
        dropped = self.count - len(self.events)
        backward_error = error_node is not None and error_node.get("stage", "during") in ("during", "after")
        if backward_error and any(s["event"] == "begin" for s in steps):
            # The failed pass ends where the node raised; show that as its last step.
            at = len(steps) - 1 if steps[-1]["event"] == "end" else len(steps)
            steps.insert(at, {"event": "error", "node": error_node["id"], "name": error_node["name"],
                              "kind": error_node.get("kind", "freed")})
        line = self.where[1] if self.where else None
        source = self.where[0] if self.where else None
        return {"pass": self.passes, "line": line, "file": source, "roots": self.roots,
                "steps": steps, "dropped": dropped}

    def unstarted_json(self, error_node, where=None):
        """A pass that raised before it began (``backward()`` of a non-scalar): only its error.

        Args:
            error_node (dict): the error's mark (``graph_errors.failed_node``).
            where (tuple, optional): ``(filename, lineno)`` of the call that raised.
        """
        source, line = where if where else (None, None)
        steps = [{"event": "error", "node": error_node["id"], "name": error_node["name"],
                  "kind": error_node["kind"]}, {"event": "end"}]
        roots = [error_node["id"]] if error_node["id"] else []
        return {"pass": self.passes + 1, "line": line, "file": source, "roots": roots,
                "steps": steps, "dropped": 0}


# ---- .grad history ----------------------------------------------------------------------------

def _change(prev, now, after_backward):
    if prev is None and now is None:
        return None
    if prev is None:
        return "computed" if after_backward else "set"
    if now is None:
        return "cleared"
    if prev.shape != now.shape or prev.dtype != now.dtype:
        return "set"
    if prev.tobytes() == now.tobytes():  # bitwise: fast for small arrays, and nan equals nan
        return None
    if not now.any():
        return "zeroed"
    return "accumulated" if after_backward else "changed"


class GradHistory:
    """Remembers how each named tensor's ``.grad`` changed: computed, accumulated, zeroed, cleared.

    ``snapshot`` compares every named tensor's gradient with the last one seen and records a
    change; it runs before and after every backward pass and after every command, so a loop of
    backward calls shows each accumulation, and ``x.grad.zero_()`` or ``x.grad = None`` between
    them shows too.
    """

    def __init__(self, max_entries=HISTORY_ENTRIES, max_elements=HISTORY_MAX_ELEMENTS):
        self.max_entries = max_entries
        self.max_elements = max_elements
        self._rows = {}
        self._seq = 0

    def clear(self):
        self._rows.clear()

    def snapshot(self, namespace, when):
        """Records changes since the last snapshot.

        Args:
            namespace (dict): the session's names.
            when (dict): where we are, e.g. ``{"kind": "after", "pass": 3, "line": 6}``;
                ``kind`` is ``"before"``/``"after"`` (a backward pass) or ``"command"``.
        """
        seen = set()
        for _, t in graph.named_tensors(namespace):
            if id(t) in seen:
                continue
            seen.add(id(t))
            row = self._rows.get(id(t))
            if row is not None and row["ref"]() is not t:  # the id was reused by a new tensor
                row = None
            if row is None:
                if not t._requires_grad and t._grad is None:
                    continue
                if t._data.size > self.max_elements:
                    continue
                row = self._rows[id(t)] = {"ref": weakref.ref(t), "last": None, "entries": [], "dropped": 0}
            now = t._grad._data if t._grad is not None else None
            if now is not None and now.size > self.max_elements:
                continue
            prev = row["last"]
            change = _change(prev, now, when.get("kind") == "after")
            if change is None:
                continue
            self._seq += 1
            # Arrays now, text (and the delta) at export: this runs twice per backward pass.
            kept = None if now is None else now.copy()
            entry = {"seq": self._seq, "change": change, "when": when, "grad": kept}
            if change in ("accumulated", "changed"):
                entry["prev"] = prev
            row["entries"].append(entry)
            if len(row["entries"]) > self.max_entries:
                row["entries"].pop(0)
                row["dropped"] += 1
            row["last"] = kept

    def export(self, namespace):
        """``{tensor_id: {"entries", "dropped"}}`` for the named tensors; forgets the others."""
        live = {id(t) for _, t in graph.named_tensors(namespace)}
        for key in [k for k, row in self._rows.items() if k not in live or row["ref"]() is None]:
            del self._rows[key]
        return {f"t{k}": {"entries": [_entry_json(e) for e in row["entries"]], "dropped": row["dropped"]}
                for k, row in self._rows.items() if row["entries"]}


def _entry_json(entry):
    out = {key: value for key, value in entry.items() if key != "prev"}
    if entry["grad"] is not None:
        out["grad"] = graph.preview(entry["grad"])
    if "prev" in entry:
        out["delta"] = graph.preview(entry["grad"].astype(np.float64) - entry["prev"])
    return out


def tensor_by_name(namespace, name):
    """The tensor a graph name (``x`` or ``model.weight``) refers to, or None."""
    for n, t in graph.named_tensors(namespace):
        if n == name:
            return t
    return None

