"""The timeline's answers to the page: its JSON export and a variable's state at a step."""
import numpy as np

from . import graph
from .timeline_visible import visibility


def export(timeline, final_graph=None):
    """The page's JSON: ``{"steps", "total_steps", "groups", "nodes", "lines", "tensors", "previews", ...}``.

    A step leaves out its ``nodes``, ``saved``, ``grads`` or ``vars`` when empty. Its ``vars`` map
    names to indices into ``tensors``  (None: unbound), and its ``grads`` map
    tensor ids to indices into ``previews`` (None: cleared); a tensor row's ``value`` and ``grad``
    are indices into ``previews`` too. The recorder summarises a tensor once per change and hands
    the same summary to every name and step that shows it unchanged (``p = W1`` in a loop), so a
    summary is sent once however many steps repeat it: W2's JSON was 758 kB with a copy per step.

    ``visible`` maps node ids to the ranges of stored step indices at which the graph shows them,
    given ``final_graph`` (``graph.export``'s JSON of the run's end; see ``timeline_visible``).
    ``freed_at`` maps the id of each node a backward pass freed to the index of the stored step
    from which the graph draws it freed (a node's saved tensors stay freed once they are).

    A node alive now has the id ``graph.export`` gives it; one made where a dead node was has its
    own (see ``timeline_state.NodeIds``). ``error`` says why recording stopped, if it did.
    ``passes_kept``: the backward passes that open in the step-through without a replay
    (``timeline_passes``).
    """
    rename = timeline.node_id.renames()
    table = _Table(rename)
    steps = []
    marks = {}  # line -> [nodes made, passes started]
    freed_at = {}  # node id -> index of the stored step whose delta has its first "freed" saved state
    preview, tensor, tensor_at = table.preview, table.tensor, table._tensor_at
    for index, s in enumerate(timeline.steps):
        d = s["delta"]
        row = s.copy()
        del row["delta"]
        # Most steps change one or two of these: an empty one is left out.
        nodes, saved, grads, names = d["nodes"], d["saved"], d["grads"], d["vars"]
        if nodes:
            row["nodes"] = nodes
        if saved:
            row["saved"] = saved
            for nid, states in saved.items():
                if nid not in freed_at and "freed" in states.values():
                    freed_at[nid] = index
        if grads:
            row["grads"] = {tid: preview(g) for tid, g in grads.items()}
        if names:  # (most summaries were met before: their index, without a call)
            row["vars"] = {name: tensor_at[id(v)] if v is not None and id(v) in tensor_at else tensor(v)
                           for name, v in names.items()}
        if rename and (nodes or saved):
            row.update(_renamed(row, rename))
        steps.append(row)
        line = s["line"]
        if line is not None:
            mark = marks.get(line)
            if mark is None:
                mark = marks[line] = [0, 0]
            mark[0] += len(nodes)
            mark[1] += s["kind"] != "line"
    lines = {str(line): {"nodes": n, "backward": b} for line, (n, b) in marks.items()}
    nodes = [{"id": r["id"], "name": r["name"], "line": r["line"], "order": r["order"], "step": r["step"],
              "next": r["next"]} for r in timeline.node_rows.values()]  # (without the private _ref, _cls)
    if rename:
        for r in nodes:
            r["id"] = rename.get(r["id"], r["id"])
            r["next"] = [rename.get(n, n) for n in r["next"]]
        freed_at = {rename.get(nid, nid): index for nid, index in freed_at.items()}
    return {"steps": steps, "total_steps": timeline.total, "stored_steps": len(steps), "limit": timeline.limit,
            "groups": timeline.groups, "groups_dropped": timeline.groups_dropped, "nodes": nodes,
            "nodes_dropped": timeline.nodes_dropped, "lines": lines, "error": timeline.error,
            "rested_after": timeline.rested_after, "tensors": table.tensors, "previews": table.previews,
            "passes_kept": timeline.passes.numbers() if timeline.passes is not None else [], "freed_at": freed_at,
            **dict(zip(("visible", "visible_until"), visibility(timeline, final_graph, rename)))}


class _Table:
    """The export's shared rows: each summary (by identity: the recorder reuses an unchanged one)
    and each value preview gets an index the first time a step names it."""

    def __init__(self, rename):
        self.rename = rename
        self.tensors, self.previews = [], []
        self._tensor_at, self._preview_at = {}, {}
        # The summaries must stay alive while their ids index the table: the steps hold them.

    def preview(self, small):
        if small is None:
            return None
        at = self._preview_at.get(id(small))
        if at is None:
            at = self._preview_at[id(small)] = len(self.previews)
            self.previews.append(small)
        return at

    def tensor(self, summary):
        if summary is None:
            return None
        at = self._tensor_at.get(id(summary))
        if at is None:
            at = self._tensor_at[id(summary)] = len(self.tensors)
            fn = summary["grad_fn_id"]
            self.tensors.append({**summary, "grad_fn_id": self.rename.get(fn, fn),
                                 "value": self.preview(summary["value"]), "grad": self.preview(summary["grad"])})
        return at


def resolved(exported):
    """``export``'s JSON with every step's ``nodes``, ``saved``, ``grads`` and ``vars`` (empty ones
    too), ``vars`` and ``grads`` holding their rows, not indices (a copy; for tests and readers
    that want a step on its own)."""
    previews = exported["previews"]
    tensors = [{**t, "value": None if t["value"] is None else previews[t["value"]],
                "grad": None if t["grad"] is None else previews[t["grad"]]} for t in exported["tensors"]]
    steps = [{**s, "nodes": s.get("nodes", []), "saved": s.get("saved", {}),
              "vars": {n: None if i is None else tensors[i] for n, i in s.get("vars", {}).items()},
              "grads": {t: None if i is None else previews[i] for t, i in s.get("grads", {}).items()}}
             for s in exported["steps"]]
    return {**exported, "steps": steps}


def inspect(timeline, name, step):
    """``name`` as ``timeline`` last recorded it at ``step`` (a step number; see ``Session.inspect``)."""
    found = None
    at = None
    for s in timeline.steps:
        if s["step"] > step:
            break
        at = s["step"]
        if name in s["delta"]["vars"]:
            found = s["delta"]["vars"][name]
    exact = any(s["step"] == step for s in timeline.steps)
    return {"ok": True, "name": name, "step": step, "at_step": at, "exact": exact,
            "bound": found is not None, "tensor": _with_text(found) if found else None}


def _renamed(row, rename):
    """What of a step's ``nodes`` and ``saved`` names a renamed node, renamed (copies)."""
    renamed = {}
    nodes, saved = row.get("nodes", ()), row.get("saved", {})
    if any(n in rename for n in nodes):
        renamed["nodes"] = [rename.get(n, n) for n in nodes]
    if any(n in rename for n in saved):
        renamed["saved"] = {rename.get(n, n): states for n, states in saved.items()}
    return renamed


def _with_text(summary):
    """A copy of a tensor's summary whose complete value and grad carry PyTorch-style text."""
    out = dict(summary)
    for key in ("value", "grad"):
        if out.get(key) is not None and "values" in out[key] and not out[key].get("truncated"):
            arr = np.asarray(out[key]["values"]).reshape(out[key]["shape"])
            out[key] = {**out[key], "text": graph.preview(arr)["text"]}
    return out
