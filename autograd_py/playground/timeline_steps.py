"""How the timeline stores a step: its *delta* (what the statement changed, see ``timeline``),
folded into the next stored step when its iteration or the step cap elides it, and the rows of the
nodes it made.

A delta is ``{"nodes", "vars", "grads", "saved"}``; what a step did not change is a shared empty
(``_NO_NODES``, ``_NO_MAP``; a step that changed nothing shares ``_EMPTY_DELTA``), so a long run
keeps few containers. ``_merge`` folds a later delta into an earlier one, which is how elided steps
reach the next stored step (``after_elided``).
"""
import weakref
from types import MappingProxyType

from .timeline_state import saved_then

NODE_LIMIT = 20000  # node rows kept


# A step's delta holds these shared empties for what it did not change (most steps change one
# or two of its four fields): each container a run keeps is one more for the garbage collector to
# count and walk, and a step of W2 kept six. A delta's other containers are its own.
_NO_NODES = ()
_NO_MAP = MappingProxyType({})


def _empty_delta():
    return {"nodes": _NO_NODES, "vars": _NO_MAP, "grads": _NO_MAP, "saved": _NO_MAP}


# The delta of a step that changed nothing (a loop's header over ints, ``with``, ``pass``), shared:
# ``_fold`` counts it, ``_close`` gives a step its own delta before merging into it.
_EMPTY_DELTA = MappingProxyType(_empty_delta())


def _merge(into, delta):
    """Folds ``delta`` (later) into ``into`` (earlier): later values win, node lists add up.
    ``into``'s own containers grow in place (folding a long loop stays linear), a shared empty
    is replaced by a copy."""
    if delta["nodes"]:
        if into["nodes"] is _NO_NODES:
            into["nodes"] = list(delta["nodes"])
        else:
            into["nodes"].extend(delta["nodes"])
    for key in ("vars", "grads"):
        if delta[key]:
            if into[key] is _NO_MAP:
                into[key] = dict(delta[key])
            else:
                into[key].update(delta[key])
    if delta["saved"]:
        if into["saved"] is _NO_MAP:
            into["saved"] = {}
        for nid, states in delta["saved"].items():
            into["saved"].setdefault(nid, {}).update(states)
    into["elided_steps"] = into.get("elided_steps", 0) + delta.get("elided_steps", 0)


def _work():
    return {"nodes": [], "vars": {}, "grads": {}, "saved": {}}


class StepStore:
    """The step-storing part of ``timeline.Timeline`` (a mixin: it uses the timeline's ``current``,
    ``steps``, ``limit``, ``held``, ``folded``, ``new_nodes``, ``node_rows``, ``node_id``, ``state``,
    ``provenance`` and ``total``)."""

    def _fold(self, step):
        delta = step["delta"]
        if delta is _EMPTY_DELTA:  # only counted
            if self.folded is None:
                self.folded = _empty_delta()
            self.folded["elided_steps"] = self.folded.get("elided_steps", 0) + 1
            return
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

    def _close(self, after_pass=False, frame=None):
        step, self.current = self.current, None
        names, opener, self._names, self._names_frame = self._names, self._names_frame, None, None
        if names is not None and frame is not opener:
            # Only the statement's own names changed, unless its frame returned since: what the
            # caller did after the call is in this step too (it lasts until the next statement).
            while frame is not None and frame is not opener:
                frame = frame.f_back
            if frame is None:
                names = None
        # The step's delta: ``work`` is filled, then its non-empty containers move to the delta.
        work = self._work
        if self.new_nodes:
            self._node_rows(work)
        line = step["line"] if step is not None else None
        if line is None:
            line = self._last_line()
        saved = _NO_MAP
        if self.state.scan(work, line, names) or after_pass or step is not None and step["kind"] != "line":
            saved = self.state.saved_changes() or _NO_MAP
        if work["nodes"] or work["vars"] or work["grads"] or saved:
            delta = {"nodes": _NO_NODES, "vars": _NO_MAP, "grads": _NO_MAP, "saved": saved}
            if work["nodes"]:
                delta["nodes"], work["nodes"] = work["nodes"], []
            if work["vars"]:
                delta["vars"], work["vars"] = work["vars"], {}
            if work["grads"]:
                delta["grads"], work["grads"] = work["grads"], {}
        else:
            delta = _EMPTY_DELTA
        if step is None:
            if delta is not _EMPTY_DELTA and self.steps and self.held is None:
                last = self.steps[-1]  # changes after a pass ended, before the next line
                if last["delta"] is _EMPTY_DELTA:
                    last["delta"] = _empty_delta()
                _merge(last["delta"], delta)
            return
        step["delta"] = delta
        self.closed = step["step"]  # the open loops' rows take it as they move on (``timeline_loops``)
        if self.held is not None:
            self.held["iters"][-1][0].append(step)
        elif self.folded is None and self._tail is None and len(self.steps) < self.limit:
            self.steps.append(step)  # (``_store``'s usual case)
        else:
            self._store(step)

    def _node_rows(self, delta):
        node_id, rows, made = self.node_id, self.node_rows, delta["nodes"]
        info, current = self.provenance.info, node_id.current  # (``Provenance.of``, ``NodeIds``, inline)
        for node in self.new_nodes:
            known = current.get(id(node))
            nid = known[0] if known is not None and known[1]() is node else node_id(node)
            if len(rows) >= NODE_LIMIT:
                self.nodes_dropped += 1
                continue
            known = info.get(id(node))
            line, order = (known[0], known[1]) if known is not None and known[2]() is node else (None, None)
            inputs = []
            for n, _ in node.next_functions:
                if n is None:
                    inputs.append(None)
                else:
                    known = current.get(id(n))
                    inputs.append(known[0] if known is not None and known[1]() is n else node_id(n))
            row = rows[nid] = {"id": nid, "name": type(node).__name__, "line": line, "order": order,
                               "step": self.total, "next": inputs, "_ref": weakref.ref(node), "_cls": type(node)}
            made.append(nid)
            if node._vars:
                self.state.watch(node)
                row["_saved"] = saved_then(node)  # (for when it is gone: ``timeline_past``)
        self.new_nodes = []

    def _last_line(self):
        return self.steps[-1]["line"] if self.steps else None
