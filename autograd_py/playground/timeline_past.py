"""A clicked graph node as it was at a past timeline step (issue 12: "at step k, saved tensors show
their state at that moment, the gradient panel each ``.grad`` as it was then").

The details panel asks ``describe`` for a node; when the timeline's slider is on an earlier step,
the answer is the node's details now with what the timeline recorded up to that step put over
them: its saved tensors' states (``alive``/``freed``/``modified``), whether it was freed, and, for
an ``AccumulateGrad``, its leaf's ``.grad``. Nothing is re-run: the states and grads are folded
from the steps' deltas (``timeline.Timeline``), as the page folds them for the graph.

A node the run's end no longer holds (a loop's earlier iteration, freed since) has no object to
describe; its row in the timeline gives its name and inputs, what it saved as it was made (shape,
version, and the values of a tensor of at most 16, as a live node's details show them), and the
folded states their states.

Limits: a live node's saved tensor's value is the one it holds at the run's end (a tensor saved
alive at step k and freed later has no value to show); a gone node's shows its values only while
alive (a modified one's values then are not kept); ``modified`` is as the timeline saw it (see
``timeline_state``).
"""
import numpy as np

from . import graph
from .timeline_state import kept_text
from .views import describe


def describe_at(namespace, timeline, node_id, step):
    """``views.describe``'s answer for ``node_id`` as the timeline recorded it at ``step``.

    Args:
        namespace (dict): the run's globals (where the node is found, if it is still reachable).
        timeline (timeline.Timeline): the last run's.
        node_id (str): the page's id of the node (``graph.export``'s, or a timeline row's).
        step (int): a step number (``step`` of the timeline's steps).

    Returns:
        dict: ``{"ok": True, "node": {...}, "at_step"}`` where ``node`` has ``describe``'s fields
        (``saved`` entries' ``state`` and ``freed`` as at ``step``; ``variable_grad`` for an
        AccumulateGrad); ``{"ok": False, "error"}`` when neither the graph nor the timeline has it.
    """
    renames = timeline.node_id.renames()
    internal = {new: old for old, new in renames.items()}.get(node_id, node_id)
    at, saved, grads = _fold(timeline, step, internal)
    answer = describe(namespace, node_id)
    if answer["ok"]:
        info = dict(answer["node"])
    else:
        row = timeline.node_rows.get(internal)
        if row is None:
            return answer
        rows = timeline.node_rows
        # Its saved values as they were made (``timeline_state.saved_then``), in their states then.
        then = row.get("_saved", {})
        known = {**dict.fromkeys(then, "alive"), **dict.fromkeys(timeline.state.saved_last.get(internal, ()), "alive"),
                 **saved}
        info = {"id": node_id, "kind": "grad_fn", "name": row["name"], "hooks": 0, "retains_grad": [],
                "saved": [_gone_entry(name, state, then.get(name)) for name, state in sorted(known.items())],
                "formula": graph.formula(row["_cls"]) if "_cls" in row else "",
                "next_functions": [[rows[n]["name"] if n in rows else "AccumulateGrad", 0] if n else [None, 0]
                                   for n in row["next"]],
                "gone": True}
    if info["kind"] == "accumulate":
        grad = grads.get(info["variable"], _ABSENT)
        if grad is not _ABSENT:
            info["variable_grad"] = None if grad is None else _with_text(grad)
        else:  # no .grad recorded up to the step: it had none then
            info["variable_grad"] = None
    else:
        info["saved"] = [_entry_at(entry, saved) for entry in info.get("saved", [])]
        info["freed"] = any(entry["state"] == "freed" for entry in info["saved"]) if info["saved"] else False
    return {"ok": True, "node": info, "at_step": at}


_ABSENT = object()


def _gone_entry(name, state, then):
    """A gone node's saved value at a step, as ``graph._saved_entries`` words a live one's: shape,
    version and (at most 16 values, while it is alive) the values it was saved with."""
    entry = {"name": name, "state": state}
    if isinstance(then, tuple):
        shape, version, values = then
        entry["shape"], entry["version"] = list(shape), version
        if values is not None and state == "alive":
            entry["value"] = graph.preview(values)["text"]
    elif then is not None:
        text = kept_text(then[0])
        if text is not None:
            entry["value"] = text
    return entry


def _entry_at(entry, saved):
    """A saved tensor's entry with its state at the step (``alive`` when nothing was recorded yet)."""
    state = saved.get(entry["name"], "alive")
    if state == entry["state"]:
        return entry
    out = {**entry, "state": state}
    out.pop("value", None)  # what it held then is not what it holds (or lost) now
    return out


def _with_text(small):
    """A recorded preview (``timeline_state.small``) with PyTorch-style ``text`` when it is whole
    (a truncated one is worded by the page, as the timeline's other previews are)."""
    if "values" not in small or small.get("truncated"):
        return small
    return {**small, "text": graph.preview(np.asarray(small["values"]).reshape(small["shape"]))["text"]}


def _fold(timeline, step, node_id):
    """The last stored step number at or before ``step``, the node's saved states then, and every
    named tensor's ``.grad`` preview then (``t<id>`` -> small, or None when cleared)."""
    at, saved, grads = None, {}, {}
    for s in timeline.steps:
        if s["step"] > step:
            break
        at = s["step"]
        delta = s["delta"]
        states = delta["saved"].get(node_id)
        if states:
            saved.update(states)
        if delta["grads"]:
            grads.update(delta["grads"])
    return at, saved, grads
