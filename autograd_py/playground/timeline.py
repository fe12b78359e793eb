"""The timeline of a playground run: one step per executed statement of the user's code.

The code runs with a call to this recorder before each statement (``step_hooks`` inserts them
with ``ast``; the library's own code runs untouched), and a step closes at the next one: what the
statement did is stored as a *delta*, never a snapshot, so memory follows what changed:

- ``nodes``: ids of the autograd nodes the statement made (their rows are in ``nodes`` of the
  timeline: name, line, order, step and ``next``, the ids of ``next_functions``);
- ``vars``: the names (re)bound or changed: tensor id, grad_fn id (the graph at a step is what is
  reachable from the names bound then), shape, dtype, requires_grad, version, small previews;
- ``grads``: ``.grad`` of named tensors that changed, by tensor id (None when cleared);
- ``saved``: saved tensors whose state changed (``alive``/``freed``/``modified``), by node id.

How a step and its delta are stored and folded is ``timeline_steps``'s part.

A loop's header is a step before each iteration and before the check that ends the loop, as a
debugger's line events are. ``backward()`` and ``autograd.grad`` calls are steps of their own
(``kind`` ``"backward"`` or ``"grad"``) carrying ``pass``, the number the step-through trace gives
its pass.

Long runs are summarised: each run of a loop is a group (``timeline_loops``). The first
``keep_iterations`` iterations and the last one are stored; the ones between are folded into the
next stored step (its delta covers them, marked ``after_elided``) and counted in the group's
``elided``; a run of the same code with ``focus`` stores one of them too (``timeline_replay``).
``step`` numbers count every executed statement.

A run is recorded step by step until ``limit`` steps are stored, or ``budget`` statements ran (a
learner's training loop of a million statements must not take ten times as long): the recorder
then rests, and its calls only count statements (and note the line of the last). When the run
ends, one more step is stored: its last statement, whose delta holds the end state (the steps
since the rest are its ``after_elided``), the nodes of that state reachable from the watched names
getting their rows then. ``rested_after`` in the export is the last step stored before it. The
rows of the for loops running at the rest go on counting their iterations (each loop's own
iterator reports them), so a training loop shows how many steps it made. Resting at the store's
limit costs the rest of the run nothing: every step recorded past it was only ever folded into the
last one, which the page shows from the run's final graph anyway (a 20-step micrograd loop's
``run_json`` in Pyodide: 575 -> 407 ms).

Limits: only module-level names and the parameters of named modules are watched (a function's
locals are not; see ``timeline_state``); a for loop's header step, and its first one when its
iterable calls nothing, looks only at the names it binds (an iterator that changes named tensors
itself, a lambda in ``map``, shows at the next step); around a backward pass started by a
statement made of one call from its own frame (``loss.backward()``), the steps look only at that
statement's names, the library changing no named tensor in the same call before or after a pass;
values and grads keep at most 64 numbers (the first 6 and min/max/mean beyond);
saved-tensor states are checked after backward passes and version changes of named tensors (an
unnamed tensor written in place shows at the next such step); nodes made in elided iterations
keep a row only while alive then.
"""
import builtins
import gc
import os
import sys

from . import step_hooks, timeline_export
from .step_hooks import ENTER, NEXT
from .timeline_loops import LoopGroups
from .timeline_state import NodeIds, StateWatch
from .timeline_steps import NODE_LIMIT, StepStore, _merge, _work

STEP_LIMIT = 5000  # stored steps
STEP_BUDGET = 50_000  # executed statements recorded one by one before the recorder rests
FULL_COLLECTION_RARITY = 10  # see ``Timeline.__enter__``
KEEP_ITERATIONS = 20  # iterations of each loop run stored before the rest are folded (but the last)
_GRAD_API = os.path.join("autograd", "api.py")


class Timeline(StepStore, LoopGroups):
    """Records the steps of one run (see the module's docstring).

    ``compile`` the code with it, then run that code inside ``with timeline:`` (which puts the
    recorder's calls in the run's builtins, and makes them do nothing once it ends).

    Args:
        namespace (dict): the run's globals (the names watched).
        code (str): the run's source (kept for ``compile``).
        provenance (provenance.Provenance): gives node lines and orders; its ``on_node`` is set here.
        filename (str, optional): the code's pseudo file name. Defaults to ``"<editor>"``.
        limit (int, optional): most steps stored. Defaults to ``STEP_LIMIT``.
        keep_iterations (int, optional): iterations of a loop run stored before folding.
        budget (int, optional): statements recorded one by one before the recorder rests.
            Defaults to ``STEP_BUDGET``.
        focus (dict, optional): ``{"group", "iteration"}``, a loop iteration to store even if it
            would be folded (see ``timeline_loops``).
    """

    def __init__(self, namespace, code, provenance, filename="<editor>", limit=None,
                 keep_iterations=KEEP_ITERATIONS, budget=None, focus=None):
        self.namespace = namespace
        self.code = code
        self.filename = filename
        self.provenance = provenance
        provenance.on_node = self._on_node
        provenance.tensor_lines = self.tensor_lines = {}
        self.node_id = NodeIds()
        self.state = StateWatch(namespace, self.tensor_lines, self.node_id)
        self.limit = STEP_LIMIT if limit is None else limit
        self.keep = keep_iterations
        self.focus = focus
        self.start_generator = None  # the random generator's state as the run began (for a replay)
        self.passes = None  # the steps of its backward passes (``timeline_passes.KeptPasses``)
        self.budget = STEP_BUDGET if budget is None else budget
        self.resting = None  # over the budget: [statements counted since]
        self.rested_after = None  # the step left open then
        self.loops = {}  # header line -> last line of every loop (``compile`` fills it)
        # header line -> names a for loop binds: its header's next steps only rebind those, so only
        # those are looked at (the step before it, the last of an iteration, looked at every name)
        self.targets = {}
        self._names = None  # of the open step, if only they can have changed
        self._names_frame = None  # the frame whose statement opened that step
        self._around = None  # of the open step, if it is a statement made of one call
        self._after_pass = (None, None)  # (names, frame) for the rest of the statement a pass ran in
        self.closed = 0  # the number of the last step closed
        self.steps = []  # stored steps
        self.total = 0  # executed steps
        self.current = None  # the open step: {"step", "line", "kind", ...}
        self.new_nodes = []
        self._work = _work()  # the open step's delta as it is filled (see ``_close``)
        self.node_rows = {}  # id -> row
        self.nodes_dropped = 0
        self.groups = []
        self.groups_dropped = 0
        self.active = []  # loop runs in progress, innermost last
        self.held = None  # iterations that may be folded: {"entry": loop run, "iters": [([steps], [groups], n)]}
        self._group_seq = 0
        self.folded = None  # the delta of folded steps, waiting for the next stored step
        self.error = None  # what stopped the recorder, if it failed (the run itself goes on)
        self.recording = True
        self._builtins = None
        self._thresholds = None  # the collector's, while the run records (see ``__enter__``)

    # ---- recording -----------------------------------------------------------------------
    def compile(self, flags=0):
        """The code object to run: ``code`` with the recorder's calls (see ``step_hooks``)."""
        compiled, self.loops, self.targets = step_hooks.instrument(self.code, self.filename, flags)
        return compiled

    def __enter__(self):
        base = self.namespace.get("__builtins__", builtins)
        self._builtins = dict(base if isinstance(base, dict) else vars(base))
        self._builtins.update(zip(step_hooks.HOOKS, step_hooks.calls(self)))
        self.namespace["__builtins__"] = self._builtins
        # What a run records stays alive to its end (a training loop's: some 100,000 containers),
        # and every full collection walks all of it: they come ten times rarer meanwhile (a
        # 20-pass 1000-op chain 1.39 -> 0.97 s in CPython). Younger garbage goes as often as ever.
        old = gc.get_threshold()
        self._thresholds = (old, (old[0], old[1], FULL_COLLECTION_RARITY * old[2]))
        gc.set_threshold(*self._thresholds[1])
        return self

    def __exit__(self, *exc_info):
        old, ours = self._thresholds
        if gc.get_threshold() == ours:  # (unless the run set its own)
            gc.set_threshold(*old)
        self._silence()
        if self.error is None:
            try:
                self.finish()
            except Exception as exc:
                self.fail(exc)
        self._let_go()
        return False

    def _let_go(self):
        """Drops what ties the finished run into reference cycles: the frames followed (a frame holds
        its caller's, and so the session and this timeline) and the provenance's hold on this
        recorder. Kept, every container of the run (~50,000 for a 2,000-statement loop) would wait
        for a full collection, which then comes during the next run and walks them all first
        (0.7 s of a 20-step chain's 1.9 s in CPython); let go, they leave when the session
        replaces this timeline."""
        self._names_frame = None
        self._after_pass = (None, None)
        for entry in self.active:
            entry["frame"] = None
        if self.held is not None:
            self.held["entry"]["frame"] = None
        if self.provenance.on_node == self._on_node:
            self.provenance.on_node = None

    def _silence(self):
        """The calls do nothing from now on (functions of the run may be called from the console)."""
        self.recording = False
        if self._builtins is not None:
            self._builtins.update(zip(step_hooks.HOOKS, step_hooks.quiet_calls()))

    def _rest(self, line):
        """Over the budget or the store's limit, from the statement at ``line`` on: the calls only
        count (see above). The loops running now end their stored steps here."""
        self.recording = False
        self.provenance.on_node = None  # the rest's nodes are not held: the end state's are found then
        for entry in self.active:
            self._settle(entry["row"])
        if self.passes is not None:
            # a later pass has no step of its own to open it from: its steps need not be kept
            self.passes.full = True
        self.resting = [1, line]  # [statements counted, the line of the last]
        self._builtins.update(zip(step_hooks.HOOKS, step_hooks.counting_calls(self.resting)))

    def rested_header(self, frame, line, ended=False):
        """While resting: the header of a for loop that ran when the recorder began to rest asks
        for its next item (``ended``: found none), as ``_next_iteration``'s and ``exhausted``'s
        line events would have said; its row counts the iteration."""
        for entry in reversed(self.active):
            if entry["frame"] is frame and entry["line"] == line:
                if ended:
                    entry["exhausted"] = True
                else:
                    entry["row"]["iterations"] += 1
                return

    def fail(self, exc):
        """A bug of the recorder must not become the user's error: recording stops, the run goes on."""
        self.error = f"{type(exc).__name__}: {exc}"
        self._silence()

    def _on_node(self, node):
        self.new_nodes.append(node)

    def _leave_returned(self, frame):
        """Ends loop runs of frames that returned (or yielded) since: those ``frame`` does not run in."""
        active = self.active
        while active:
            target, f = active[-1]["frame"], frame
            while f is not None and f is not target:
                f = f.f_back
            if f is not None:
                return
            self._exit_loop()

    def line_event(self, frame, line, kind, names=None, around=None):
        """A statement (``STEP``), a loop's start (``ENTER``) or its header again (``NEXT``) at ``line``;
        ``names``: all that the statement can change, if known; ``around``: what it can change apart
        from what its one call does, if it is made of one (see ``step_hooks``)."""
        if self.total >= self.budget or len(self.steps) >= self.limit:
            self._close(frame=frame)  # the step open then keeps what it did, as any other
            self._rest(line)
            if kind == NEXT:  # a loop's header again: its row counts the iteration, as resting ones do
                self.rested_header(frame, line)
            return
        self._close(frame=frame)
        active = self.active
        top = same_loop = None
        if active:
            top = active[-1]
            if top["frame"] is not frame:
                self._leave_returned(frame)
                top = active[-1] if active else None
            # A line outside a loop run of this frame ends it (after a break, or the loop's end).
            while top is not None and top["frame"] is frame and not top["line"] <= line <= top["end"]:
                self._exit_loop()
                top = active[-1] if active else None
            same_loop = top is not None and top["frame"] is frame and top["line"] == line
            if kind == ENTER and same_loop:  # the loop again, its last run not left by another line
                self._exit_loop()
        self.total += 1
        if kind == ENTER or kind == NEXT and not same_loop:
            self._enter_loop(frame, line)
        elif kind == NEXT:
            self._next_iteration(top)
            names = self.targets.get(line)
        self._names, self._names_frame, self._around = names, frame, around
        if active:
            row = active[-1]["row"]
            self.current = {"step": self.total, "line": line, "kind": "line", "group": row["id"],
                            "iteration": row["iterations"]}
        else:
            self.current = {"step": self.total, "line": line, "kind": "line"}

    def exhausted(self, frame, line):
        """The loop at ``line`` ended by its own check (not a break): its last header step was that."""
        if self.active and self.active[-1]["frame"] is not frame:  # a generator it asked may have returned
            self._leave_returned(frame)
        if self.active and self.active[-1]["frame"] is frame and self.active[-1]["line"] == line:
            self.active[-1]["exhausted"] = True

    def on_pass(self, when, recorder):
        """The session's boundary callback around every top-level backward pass."""
        if not self.recording:
            if self.resting is not None and when == "before":  # a pass is a step: counted while resting
                self.resting[0] += 1
            return
        try:
            self._on_pass(when, recorder)
        except Exception as exc:
            self.fail(exc)

    def _on_pass(self, when, recorder):
        if when == "before":
            line = recorder.where[1] if recorder.where and recorder.where[0] == self.filename else None
            frame = _user_frame(self.filename)
            # A pass that starts inside the one call its statement is made of (``loss.backward()``,
            # run from the statement's own frame, not a lambda's): only that call's library code ran
            # since the statement began, and after the pass only the rest of it and the binding will
            # (``step_hooks._around_call``): the steps on both sides look at those names alone.
            around = self._around
            if around is None or frame is None or frame is not self._names_frame or self.current is None:
                around = None
            self._names = around
            self._close(frame=frame)
            self._after_pass = (around, frame)
            if frame is not None and self.active and self.active[-1]["frame"] is not frame:
                self._leave_returned(frame)
            self.total += 1
            self.current = {"step": self.total, "line": line, "kind": _pass_kind(), "pass": recorder.passes}
            if self.active:
                self.current["group"] = self.active[-1]["row"]["id"]
                self.current["iteration"] = self.active[-1]["row"]["iterations"]
        else:
            self._close(after_pass=True)
            if self._after_pass[0] is not None:  # the rest of the statement: see "before"
                self._names, self._names_frame = self._after_pass
        self._around = None

    def finish(self):
        """Closes the last step and every loop still open (an error may have ended the run)."""
        if self.resting is not None:
            counted, line = self.resting
            self.total += counted
            # the run's last statement, after the others counted since the rest (folded into it)
            self.current = {"step": self.total, "line": line, "kind": "line"}
            self._names = None  # its delta looks at every name: the end state
            self.new_nodes.extend(self.state.unrecorded_nodes(self.node_rows, NODE_LIMIT - len(self.node_rows)))
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
        if self.resting is not None:  # the last step stored is the run's last statement
            last = self.steps[-1]
            last["after_elided"] = last.get("after_elided", 0) + self.resting[0] - 1
            self.rested_after = self.steps[-2]["step"] if len(self.steps) > 1 else None

    # ---- answers -------------------------------------------------------------------------
    def export(self, final_graph=None):
        """The page's JSON (see ``timeline_export.export``).

        The collector rests meanwhile: the export makes ~2,000 containers on W2, all of them kept,
        so the two or three collections they would set off find nothing to free (one runs after,
        as the count asks), and each is a tenth of the way to a collection of every older object.
        """
        enabled = gc.isenabled()
        gc.disable()
        try:
            return timeline_export.export(self, final_graph)
        finally:
            if enabled:
                gc.enable()

    def inspect(self, name, step):
        """``name`` as the timeline last recorded it at ``step`` (see ``Session.inspect``)."""
        return timeline_export.inspect(self, name, step)


def _pass_kind():
    """``"grad"`` when ``autograd.grad`` started the pass, else ``"backward"``."""
    frame = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        if code.co_filename.endswith(_GRAD_API):
            return "grad" if code.co_name == "grad" else "backward"
        frame = frame.f_back
    return "backward"


def _user_frame(filename):
    """The innermost frame running the code of ``filename``, or None."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename != filename:
        frame = frame.f_back
    return frame
