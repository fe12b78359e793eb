"""The timeline's answers to the page: its JSON export and a variable's state at a step."""
import numpy as np

from . import graph


def export(timeline):
    """The page's JSON: ``{"steps", "total_steps", "groups", "nodes", "lines", ...}``.

    A node alive now has the id ``graph.export`` gives it; one made where a dead node was has its
    own (see ``timeline_state.NodeIds``). ``error`` says why recording stopped, if it did.
    """
    rename = timeline.node_id.renames()
    steps = []
    lines = {}
    for s in timeline.steps:
        d = s["delta"]
        row = {**s, "nodes": d["nodes"], "grads": d["grads"], "saved": d["saved"], "vars": d["vars"]}
        del row["delta"]
        if rename:
            row.update(_renamed(row, rename))
        steps.append(row)
        if s["line"] is not None:
            mark = lines.setdefault(str(s["line"]), {"nodes": 0, "backward": 0})
            mark["nodes"] += len(d["nodes"])
            mark["backward"] += s["kind"] != "line"
    nodes = [{k: v for k, v in r.items() if k != "_ref"} for r in timeline.node_rows.values()]
    if rename:
        for r in nodes:
            r["id"] = rename.get(r["id"], r["id"])
            r["next"] = [rename.get(n, n) for n in r["next"]]
    return {"steps": steps, "total_steps": timeline.total, "stored_steps": len(steps), "limit": timeline.limit,
            "groups": timeline.groups, "groups_dropped": timeline.groups_dropped, "nodes": nodes,
            "nodes_dropped": timeline.nodes_dropped, "lines": lines, "error": timeline.error,
            "rested_after": timeline.rested_after}


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
    """What of a step's ``nodes``, ``saved`` and ``vars`` names a renamed node, renamed (copies)."""
    renamed = {}
    if any(n in rename for n in row["nodes"]):
        renamed["nodes"] = [rename.get(n, n) for n in row["nodes"]]
    if any(n in rename for n in row["saved"]):
        renamed["saved"] = {rename.get(n, n): states for n, states in row["saved"].items()}
    if any(v is not None and v["grad_fn_id"] in rename for v in row["vars"].values()):
        renamed["vars"] = {name: v if v is None or v["grad_fn_id"] not in rename else
                           {**v, "grad_fn_id": rename[v["grad_fn_id"]]} for name, v in row["vars"].items()}
    return renamed


def _with_text(summary):
    """A copy of a tensor's summary whose complete value and grad carry PyTorch-style text."""
    out = dict(summary)
    for key in ("value", "grad"):
        if out.get(key) is not None and "values" in out[key] and not out[key].get("truncated"):
            arr = np.asarray(out[key]["values"]).reshape(out[key]["shape"])
            out[key] = {**out[key], "text": graph.preview(arr)["text"]}
    return out
