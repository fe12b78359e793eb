"""Any backward pass of a run opens in the step-through, not only its last one (issue 12).

The timeline shows every ``backward()`` and ``autograd.grad`` call of a run as a step of its own.
The step-through (``views.PassRecorder``'s trace) shows the steps of one pass: the run's JSON
carries the last pass's, as before; the others are asked for with the ``pass`` request.

Keeping every pass of a training loop is what would cost: each pass holds copies of its
gradients (the step-through shows them as they were), about 1 MB for W2's 784x128 layer, and
memory kept is memory the next pass cannot reuse (W2 with 16 MB kept ran 2.4 ms, 6%, slower).
So ``KeptPasses`` keeps the passes in run order while their copies fit in ``PASS_BYTES`` (and at
most ``PASS_LIMIT`` of them); the run's last pass is in its JSON already (``trace``). A pass it
turned away opens by running the code again (``timeline_replay.rerun``) with that pass kept, as a
folded loop iteration opens. The replay is the same run (same code, same random generator state;
see ``timeline_loops``), so its pass ``n`` is the first run's. Nothing is formatted as JSON until
the page asks for a pass.

Node ids in a kept pass's steps are the timeline's (``timeline_state.NodeIds``, with the export's
renames), so the step-through highlights the nodes of the graph the timeline draws at that step.
"""
from . import trace
from .timeline_replay import rerun
from .views import _thaw_event

PASS_BYTES = 4 << 20  # copied gradients kept of a run's passes (W2: its first 4)
PASS_LIMIT = 200  # passes kept (a loop of tiny passes costs formatting, not bytes)


class KeptPasses:
    """The raw steps of a run's backward passes, offered by ``PassRecorder`` as each one ends.

    Args:
        node_id (timeline_state.NodeIds, optional): the timeline's node ids, read as each pass ends
            (an address names another node once the pass's nodes are gone).
        focus (int, optional): a pass number kept whatever the budget (a replay's).
        budget (int, optional): bytes of gradient copies kept. Defaults to ``PASS_BYTES``.
        most (int, optional): passes kept. Defaults to ``PASS_LIMIT``.
    """

    def __init__(self, node_id=None, focus=None, budget=None, most=None):
        self.node_id = node_id
        self.focus = focus
        self.budget = PASS_BYTES if budget is None else budget
        self.most = PASS_LIMIT if most is None else most
        self.kept = {}  # pass number -> entry (see ``offer``)
        self.used = 0
        self.full = False  # a pass was turned away: the later ones are too (kept passes are the first ones)
        self.passes = 0  # passes offered

    def offer(self, recorder):
        """Keeps the pass ``recorder`` just finished if it fits (see the module's docstring)."""
        try:
            self._offer(recorder)
        except Exception:  # a view must never break the user's backward
            self.full = True

    def _offer(self, recorder):
        self.passes = recorder.passes
        if self.full and recorder.passes != self.focus:
            return
        events = recorder.events
        size = 0
        for e in events:
            for key in ("grads_in", "grads_out"):
                for g in e.get(key, ()):
                    if g is not None:
                        size += g.nbytes
            g = e.get("grad")
            if g is not None:
                size += g.nbytes
        fits = not self.full and len(self.kept) < self.most and self.used + size <= self.budget
        if not fits and recorder.passes != self.focus:
            self.full = True
            return
        self.kept[recorder.passes] = self._entry(recorder)
        self.used += size

    def _entry(self, recorder):
        """The pass's steps without the node objects its events point at (kept alive by them, the
        nodes would hold their saved tensors), node addresses turned into the timeline's ids."""
        name = self._namer()
        events = []
        for e in recorder.events:
            kind = e["event"]
            if kind == "node":
                e = {**e, "node": name(e["node"]), "edges": [(None, nr) for _, nr in e["edges"]],
                     "to": [None if n is None else name(id(n)) for n, _ in e["edges"]]}
            elif kind in ("accumulate", "hook"):
                e = {**e, "node": name(e["node"])}
            events.append(e)
        return {"pass": recorder.passes, "events": events, "count": recorder.count, "where": recorder.where,
                "roots": [name(int(r[1:])) for r in recorder.roots]}

    def _namer(self):
        current = self.node_id.current if self.node_id is not None else {}

        def name(address):
            known = current.get(address)
            return known[0] if known is not None and known[1]() is not None else f"f{address}"
        return name

    def numbers(self):
        """The pass numbers kept, in run order."""
        return sorted(self.kept)

    def trace(self, number, rename=None):
        """Pass ``number``'s steps as ``PassRecorder.steps_json`` gives them, or None if not kept.

        Args:
            number (int): the pass's number (``pass`` of its timeline step).
            rename (dict, optional): the timeline export's node renames (``NodeIds.renames``).

        Returns:
            dict or None: ``{"pass", "line", "file", "roots", "steps", "dropped"}``.
        """
        entry = self.kept.get(number)
        if entry is None:
            return None
        rename = rename or {}
        steps = []
        for e in entry["events"]:
            step = trace._to_json(_thaw_event(e))
            if "node" in e:
                step["node"] = rename.get(e["node"], e["node"])
            if e["event"] == "node":
                for out, to in zip(step["grads_out"], e["to"]):
                    out["to"] = rename.get(to, to)
            steps.append(step)
        roots = [rename.get(r, r) for r in entry["roots"]]
        if steps and steps[0]["event"] == "begin":
            steps[0]["roots"] = roots
        source, line = entry["where"] if entry["where"] else (None, None)
        return {"pass": number, "line": line, "file": source, "roots": roots, "steps": steps,
                "dropped": entry["count"] - len(entry["events"])}


def open_pass(session, number):
    """The steps of pass ``number`` of the last run, for the step-through.

    Args:
        session (session.Session): the page's session; its last run recorded a timeline.
        number (int): the pass's number (``pass`` of a timeline step), 1-based.

    Returns:
        dict: ``{"ok": True, "pass", "trace"}`` when the run kept that pass (``trace`` None when it
        made no such pass); else the answer of a
        replay that kept it: ``Session.run``'s answer plus ``pass_trace`` (None if the replay made
        fewer passes) and ``replay``: ``{"pass", "step", "same"}``, ``step`` the number of the
        pass's timeline step in the new run (None if it has none).
    """
    timeline = session._timeline
    kept = timeline.passes
    rename = timeline.node_id.renames()
    found = kept.trace(number, rename) if kept is not None else None
    if found is not None or kept is None or number > kept.passes:
        return {"ok": True, "pass": number, "trace": found}  # (None: the run made no such pass)
    result, same = rerun(session, focus=timeline.focus, pass_focus=number)
    new = session._timeline
    again = new.passes.trace(number, new.node_id.renames()) if new is not None and new.passes else None
    step = None
    if result.get("timeline"):
        step = next((s["step"] for s in result["timeline"]["steps"] if s.get("pass") == number), None)
    result["pass_trace"] = again
    result["replay"] = {"pass": number, "step": step, "same": same}
    return result
