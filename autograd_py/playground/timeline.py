"""The timeline of a playground run: one step per executed statement of the user's code.

``Timeline`` traces line events of the editor's code (``sys.settrace``; library frames get no
line tracing), and closes a step at the next one: what the statement did is stored as a *delta*,
never a snapshot, so memory follows what changed:

- ``nodes``: ids of the autograd nodes the statement made (their rows are in ``nodes`` of the
  timeline: name, line, order, step and ``next``, the ids of ``next_functions``);
- ``vars``: the names (re)bound or changed: tensor id, grad_fn id (the graph at a step is what is
  reachable from the names bound then), shape, dtype, requires_grad, version, small previews;
- ``grads``: ``.grad`` of named tensors that changed, by tensor id (None when cleared);
- ``saved``: saved tensors whose state changed (``alive``/``freed``/``modified``), by node id.

``backward()`` and ``autograd.grad`` calls are steps of their own (``kind`` ``"backward"`` or
``"grad"``) carrying ``pass``, the number the step-through trace gives its pass.

Long runs are summarised: each run of a loop is a group (header line, first and last step,
iterations). The first ``keep_iterations`` iterations and the last one are stored; the ones
between are folded into the next stored step (its delta covers them, marked ``after_elided``)
and counted in the group's ``elided``. At most ``limit`` steps are stored; beyond, the steps are
folded likewise and only the last is kept. ``step`` numbers count every executed statement.

Limits: only module-level names and the parameters of named modules are watched (a function's
locals are not); values and grads keep at most ``PREVIEW_ELEMENTS`` numbers (the first ones and
min/max/mean beyond); saved-tensor states are checked after backward passes and version changes
of named tensors (an unnamed tensor written in place shows at the next such step); nodes made in
elided iterations keep a row only while alive then.
"""
import ast
import os
import sys
import weakref

import numpy as np

from .._tensor import Tensor
from . import graph

STEP_LIMIT = 5000  # stored steps
KEEP_ITERATIONS = 20  # iterations of each loop run stored before the rest are folded (but the last)
PREVIEW_ELEMENTS = 64
NODE_LIMIT = 20000  # node rows kept
SAVED_WATCH = 2000  # newest nodes with saved tensors whose states are followed
_GRAD_API = os.path.join("autograd", "api.py")


def loop_headers(code):
    """``{header_line: last_line}`` of every for/while loop in ``code`` (empty if it does not parse)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return {}
    return {n.lineno: n.end_lineno for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While, ast.AsyncFor))}


def small(data):
    """A copy small enough to keep per step: all values up to ``PREVIEW_ELEMENTS``, else the first
    ones and min/max/mean (floats, or None for non-numeric dtypes)."""
    out = {"shape": list(data.shape)}
    if data.dtype.kind not in "fiub":
        return out
    flat = np.asarray(data, dtype=np.float64).reshape(-1)
    if flat.size <= PREVIEW_ELEMENTS:
        out["values"] = flat.tolist()
    else:
        out["values"] = flat[:PREVIEW_ELEMENTS].tolist()
        out["truncated"] = True
        out["min"], out["max"], out["mean"] = float(flat.min()), float(flat.max()), float(flat.mean())
    return out


def _grad_key(g):
    if g is None:
        return None
    d = g._data
    return (id(g), g._version_counter[0], d.tobytes() if d.size <= PREVIEW_ELEMENTS else id(d))


def _merge(into, delta):
    """Folds ``delta`` (later) into ``into`` (earlier): later values win, node lists add up."""
    into["nodes"].extend(delta["nodes"])
    for key in ("vars", "grads"):
        into[key].update(delta[key])
    for nid, states in delta["saved"].items():
        into["saved"].setdefault(nid, {}).update(states)
    into["elided_steps"] = into.get("elided_steps", 0) + delta.get("elided_steps", 0)


def _empty():
    return {"nodes": [], "vars": {}, "grads": {}, "saved": {}}


class Timeline:
    """Records the steps of one run (see the module's docstring); install with ``with``.

    Args:
        namespace (dict): the run's globals (the names watched).
        code (str): the run's source (its loops are found with ``ast``).
        provenance (provenance.Provenance): gives node lines and orders; its ``on_node`` is set here.
        filename (str, optional): the code's pseudo file name. Defaults to ``"<editor>"``.
        limit (int, optional): most steps stored. Defaults to ``STEP_LIMIT``.
        keep_iterations (int, optional): iterations of a loop run stored before folding.
    """

    def __init__(self, namespace, code, provenance, filename="<editor>", limit=STEP_LIMIT,
                 keep_iterations=KEEP_ITERATIONS):
        self.namespace = namespace
        self.filename = filename
        self.provenance = provenance
        provenance.on_node = self._on_node
        provenance.tensor_lines = self.tensor_lines = {}
        self.limit = limit
        self.keep = keep_iterations
        self.loops = loop_headers(code)
        self.steps = []  # stored steps
        self.total = 0  # executed steps
        self.current = None  # the open step: {"step", "line", "kind", ...}
        self.new_nodes = []
        self.node_rows = {}  # id -> row
        self.nodes_dropped = 0
        self.groups = []
        self.groups_dropped = 0
        self.active = []  # loop runs in progress, innermost last
        self.held = None  # iterations that may be folded: {"entry": loop run, "iters": [([steps], [groups], n)]}
        self._group_seq = 0
        self.folded = None  # the delta of folded steps, waiting for the next stored step
        self.watched = []  # weakrefs to nodes with saved tensors
        self.saved_last = {}
        self.var_keys = {}
        self.grad_keys = {}
        self.grad_snap = {}  # tensor id -> small(.grad) as last recorded, for inspect
        self._previous_trace = None

    # ---- tracing -------------------------------------------------------------------------
    def __enter__(self):
        self._previous_trace = sys.gettrace()
        sys.settrace(self._global)
        return self

    def __exit__(self, *exc):
        sys.settrace(self._previous_trace)
        self.finish()
        return False

    def _global(self, frame, event, arg):
        if frame.f_code.co_filename == self.filename:
            return self._local
        return None

    def _local(self, frame, event, arg):
        if event == "line":
            self._line(frame, frame.f_lineno)
        elif event == "return":
            while self.active and self.active[-1]["frame"] is frame:
                self._exit_loop()
        return self._local

    def _on_node(self, node):
        self.new_nodes.append(node)

    def _line(self, frame, line):
        self._close()
        # A line outside a loop run of this frame ends it (after a break, or the loop's end).
        while self.active and self.active[-1]["frame"] is frame and not (
                self.active[-1]["line"] <= line <= self.active[-1]["end"]):
            self._exit_loop()
        self.total += 1
        for entry in self.active:
            entry["steps"] += 1
        if line in self.loops:
            top = self.active[-1] if self.active else None
            if top is not None and top["frame"] is frame and top["line"] == line:
                self._next_iteration(top)
            else:
                self._enter_loop(frame, line)
        self.current = {"step": self.total, "line": line, "kind": "line"}
        group = self.active[-1]["row"] if self.active else None
        if group is not None:
            self.current["group"] = group["id"]
            self.current["iteration"] = group["iterations"]

    def on_pass(self, when, recorder):
        """The session's boundary callback around every top-level backward pass."""
        if when == "before":
            line = recorder.where[1] if recorder.where and recorder.where[0] == self.filename else None
            self._close()
            self.total += 1
            for entry in self.active:
                entry["steps"] += 1
            self.current = {"step": self.total, "line": line, "kind": _pass_kind(), "pass": recorder.passes}
            if self.active:
                self.current["group"] = self.active[-1]["row"]["id"]
                self.current["iteration"] = self.active[-1]["row"]["iterations"]
        else:
            self._close(after_pass=True)

    # ---- loops ---------------------------------------------------------------------------
    def _enter_loop(self, frame, line):
        self._group_seq += 1
        row = {"id": self._group_seq, "line": line, "end": self.loops[line], "first_step": self.total,
               "last_step": self.total, "iterations": 1, "shown": [[1, self.total, self.total]], "elided": None,
               "parent": self.active[-1]["row"]["id"] if self.active else None}
        if self.held is not None:
            self.held["iters"][-1][1].append(row)
        else:
            self.groups.append(row)
        self.active.append({"frame": frame, "line": line, "end": row["end"], "row": row, "steps": 1})

    def _next_iteration(self, entry):
        row = entry["row"]
        row["iterations"] += 1
        entry["steps"] = 1
        row["shown"].append([row["iterations"], self.total, self.total])
        if self.held is None and row["iterations"] > self.keep:
            self.held = {"entry": entry, "iters": []}
        if self.held is not None and self.held["entry"] is entry:
            iters = self.held["iters"]
            # Two iterations wait: the loop's last line event may be only the check that ends it.
            if len(iters) >= 2:
                self._fold_iteration(row, *iters.pop(0))
            iters.append(([], [], row["iterations"]))

    def _exit_loop(self):
        entry = self.active.pop()
        row = entry["row"]
        if row["iterations"] > 1 and entry["steps"] == 1 and row["line"] != row["end"]:
            row["iterations"] -= 1  # that header step was the check that ended the loop
            row["shown"].pop()
        if self.held is not None and self.held["entry"] is entry:
            held, self.held = self.held, None
            for steps, groups, _ in held["iters"]:
                self.groups.extend(groups)
                for step in steps:
                    self._store(step)

    def _fold_iteration(self, row, steps, groups, number):
        """An iteration that was not the last: its steps become part of the next stored delta."""
        self.groups_dropped += len(groups)
        elided = row["elided"] or {"iterations": 0, "steps": 0, "from_iteration": number}
        elided["iterations"] += 1
        elided["steps"] += len(steps)
        elided["to_iteration"] = number
        row["elided"] = elided
        row["shown"] = [s for s in row["shown"] if s[0] != number]
        for step in steps:
            self._fold(step)

    # ---- steps ---------------------------------------------------------------------------
    def _fold(self, step):
        delta = step["delta"]
        delta["elided_steps"] = delta.get("elided_steps", 0) + 1
        if self.folded is None:
            self.folded = delta
        else:
            _merge(self.folded, delta)
        # Rows of nodes that died meanwhile are of no use to any later step (checked as the list
        # doubles, so folding stays linear).
        if len(self.folded["nodes"]) < 2 * self.folded.get("_checked", 32):
            return
        alive = []
        for nid in self.folded["nodes"]:
            row = self.node_rows.get(nid)
            if row is not None and row["_ref"]() is not None:
                alive.append(nid)
            else:
                self.node_rows.pop(nid, None)
        self.folded["nodes"] = alive
        self.folded["_checked"] = max(32, len(alive))

    def _store(self, step):
        if len(self.steps) >= self.limit:  # over the cap: only the newest step waits to be stored
            if self._tail is not None:
                self._fold(self._tail)
            self._tail = step
            return
        if self.folded is not None:
            delta, self.folded = self.folded, None
            elided = delta.pop("elided_steps", 0)
            delta.pop("_checked", None)
            _merge(delta, step["delta"])
            delta.pop("elided_steps", None)
            step["delta"] = delta
            step["after_elided"] = elided
        self.steps.append(step)

    _tail = None

    def _close(self, after_pass=False):
        step, self.current = self.current, None
        delta = self._delta(after_pass or (step is not None and step["kind"] != "line"),
                            step["line"] if step is not None else None)
        if step is None:
            if any(delta.values()) and self.steps:  # changes after a pass ended, before the next line
                if self.held is None:
                    _merge(self.steps[-1]["delta"], delta)
            return
        step["delta"] = delta
        for entry in self.active:
            entry["row"]["last_step"] = step["step"]
            shown = entry["row"]["shown"]
            if shown and shown[-1][0] == entry["row"]["iterations"]:
                shown[-1][2] = step["step"]
        if self.held is not None:
            self.held["iters"][-1][0].append(step)
        else:
            self._store(step)

    def _delta(self, check_saved, line):
        delta = _empty()
        for node in self.new_nodes:
            nid = f"f{id(node)}"
            if len(self.node_rows) >= NODE_LIMIT:
                self.nodes_dropped += 1
                continue
            prov = self.provenance.of(node)
            self.node_rows[nid] = {"id": nid, "name": type(node).__name__, **prov,
                                   "step": self.total,
                                   "next": [f"f{id(n)}" if n is not None else None for n, _ in node.next_functions],
                                   "_ref": weakref.ref(node)}
            delta["nodes"].append(nid)
            if node._vars:
                self.watched.append(weakref.ref(node))
        self.new_nodes = []
        versions_changed = False
        seen = set()
        for name, t in graph.named_tensors(self.namespace):
            fn = t._grad_fn
            key = (id(t), t._version_counter[0], t._requires_grad, id(fn), _grad_key(t._grad))
            if self.var_keys.get(name) != key:
                old = self.var_keys.get(name)
                versions_changed = versions_changed or (old is not None and old[0] == key[0] and old[1] != key[1])
                self.var_keys[name] = key
                self.tensor_lines.setdefault(id(t), line if line is not None else self._last_line())
                delta["vars"][name] = self._summary(t)
            if id(t) not in seen:
                seen.add(id(t))
                gkey = _grad_key(t._grad)
                if self.grad_keys.get(id(t), None) != gkey:
                    self.grad_keys[id(t)] = gkey
                    delta["grads"][f"t{id(t)}"] = None if t._grad is None else small(t._grad._data)
        for name in [n for n in self.var_keys if not _bound(self.namespace, n)]:
            del self.var_keys[name]
            delta["vars"][name] = None  # unbound (``del``), or no longer a tensor
        if check_saved or versions_changed:
            delta["saved"] = self._saved_changes()
        return delta

    def _last_line(self):
        return self.steps[-1]["line"] if self.steps else None

    @staticmethod
    def _summary(t):
        fn = t._grad_fn
        return {"id": f"t{id(t)}", "shape": list(t._data.shape), "dtype": repr(t.dtype),
                "requires_grad": t._requires_grad, "grad_fn": type(fn).__name__ if fn is not None else None,
                "grad_fn_id": f"f{id(fn)}" if fn is not None else None, "version": t._version_counter[0],
                "value": small(t._data), "grad": None if t._grad is None else small(t._grad._data)}

    def _saved_changes(self):
        changes = {}
        live = []
        for ref in self.watched[-SAVED_WATCH:]:
            node = ref()
            if node is None:
                continue
            live.append(ref)
            nid = f"f{id(node)}"
            states = {key: state for key, _, state in node.saved_items()}
            last = self.saved_last.get(nid)
            diff = {k: s for k, s in states.items() if last is None and s != "alive" or
                    last is not None and last.get(k) != s}
            if diff:
                changes[nid] = diff
            self.saved_last[nid] = states
        self.watched = live
        return changes

    def finish(self):
        """Closes the last step and every loop still open (an error may have ended the run)."""
        self._close()
        while self.active:
            self._exit_loop()
        if self._tail is not None:
            tail, self._tail = self._tail, None
            if self.folded is not None:
                delta, self.folded = self.folded, None
                elided = delta.pop("elided_steps", 0)
                delta.pop("_checked", None)
                _merge(delta, tail["delta"])
                delta.pop("elided_steps", None)
                tail["delta"], tail["after_elided"] = delta, elided
            self.steps.append(tail)

    # ---- answers -------------------------------------------------------------------------
    def export(self):
        """The page's JSON: ``{"steps", "total_steps", "groups", "nodes", "lines", ...}``."""
        steps = []
        lines = {}
        for s in self.steps:
            d = s["delta"]
            row = {k: v for k, v in s.items() if k != "delta"}
            row.update(nodes=d["nodes"], grads=d["grads"], saved=d["saved"],
                       vars={name: _public(v) for name, v in d["vars"].items()})
            steps.append(row)
            if s["line"] is not None:
                mark = lines.setdefault(str(s["line"]), {"nodes": 0, "backward": 0})
                mark["nodes"] += len(d["nodes"])
                mark["backward"] += s["kind"] != "line"
        nodes = [{k: v for k, v in r.items() if k != "_ref"} for r in self.node_rows.values()]
        return {"steps": steps, "total_steps": self.total, "stored_steps": len(steps), "limit": self.limit,
                "groups": self.groups, "groups_dropped": self.groups_dropped, "nodes": nodes,
                "nodes_dropped": self.nodes_dropped, "lines": lines}

    def inspect(self, name, step):
        """``name`` as the timeline last recorded it at ``step`` (a step number; see ``Session.inspect``)."""
        found = None
        at = None
        for s in self.steps:
            if s["step"] > step:
                break
            at = s["step"]
            if name in s["delta"]["vars"]:
                found = s["delta"]["vars"][name]
        exact = any(s["step"] == step for s in self.steps)
        return {"ok": True, "name": name, "step": step, "at_step": at, "exact": exact,
                "bound": found is not None, "tensor": _public(found, text=True) if found else None}


def _public(summary, text=False):
    if summary is None:
        return None
    out = {k: v for k, v in summary.items()}
    if text:
        for key in ("value", "grad"):
            if out.get(key) is not None and "values" in out[key] and not out[key].get("truncated"):
                arr = np.asarray(out[key]["values"]).reshape(out[key]["shape"])
                out[key] = {**out[key], "text": graph.preview(arr)["text"]}
    return out


def _bound(namespace, name):
    head = name.split(".", 1)[0]
    value = namespace.get(head)
    return isinstance(value, Tensor) if "." not in name else value is not None


def _pass_kind():
    """``"grad"`` when ``autograd.grad`` started the pass, else ``"backward"``."""
    frame = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        if code.co_filename.endswith(_GRAD_API):
            return "grad" if code.co_name == "grad" else "backward"
        frame = frame.f_back
    return "backward"
