"""The Python half of the browser playground: a notebook-like session.

The web worker owns Pyodide and talks to this module only through plain
strings (``Session.run_json``), so no Python object ever has to cross into
JavaScript. Everything here is ordinary CPython code and is unit-tested
outside the browser; this module never imports ``js`` or ``pyodide``.

Every command's result also carries what the "See autograd" views draw: ``graph`` (from
``graph.export`` of the namespace), ``trace`` (the steps of the command's last backward pass),
``grad_history`` and ``failed_node``; ``request_json`` answers the views' own requests
(``backward``, ``jacobian``, ``describe``, ``reset``). See ``views`` and
``backward``; ``user_code`` holds the display hook, warning printer and error summary a command
runs with.

Example::

    >>> session = Session()
    >>> result = session.run("x = 2 + 3\\nprint(x)")
    >>> result["ok"], result["stdout"]
    (True, '5\\n')
    >>> session.eval_line("x * 10")["stdout"]
    '50\\n'
"""

import contextlib
import json
import linecache
import sys
import time
import warnings

from .. import engine
from ..autograd import forward_ad
from . import graph
from .forward_view import ForwardRecorder
from .jacobian_modes import callables, compare
from .output import (FLUSH_CHARS, FLUSH_INTERVAL_S, MAX_OUTPUT_CHARS, MAX_OUTPUT_LINES,  # noqa: F401 (re-exported)
                                TRUNCATION_NOTE, OutputCapture, _StreamWriter)
from .globals import SessionGlobals
from .backward import RequestError, grad_change_report, jacobian, plan_backward, watched_tensor
from .views import GradHistory, PassRecorder, describe, failed_node, json_safe
from .graph_errors import backward_error
from .freed_help import FreeingCalls, freed_tensor_ids
from .quick_fixes import for_error, torch_name, with_comment
from .provenance import Provenance
from .timeline import Timeline
from .timeline_passes import KeptPasses
from . import timeline_requests
from .graph_reach import add_reach
from .user_code import CONSOLE_FILENAME, EDITOR_FILENAME, _display_to, _innermost_user_line, _warning_printer
from .user_code import describe_error

GRAPH_BUDGET = 400  # most nodes the graph view gets; graph.export collapses or cuts the rest


class Session:
    """A Python namespace in which ``torch`` is ``autograd_py``.

    Each ``run`` starts a fresh script namespace; console lines (``eval_line``) and the views'
    requests continue in the namespace of the last run, like exploring after ``python -i``.

    Args:
        on_output (callable or None): receives streamed output as
            ``on_output(stream, text)``; see ``OutputCapture``.
        max_chars (int): per-run cap on captured output characters.
        max_lines (int): per-run cap on captured output lines.
        timeline (bool): record each run's timeline and the lines that made its nodes (issue 12's
            time travel: a call per executed statement, see ``step_hooks``; about 1.3-1.5x on a
            training loop, more on loops of cheap scalar statements). The page's worker asks for
            it; embeds and plain ``Session()`` do without.

    Example::

        >>> s = Session()
        >>> s.run("import torch\\nx = torch.ones(2, requires_grad=True)")["ok"]
        True
        >>> s.eval_line("x.requires_grad")["stdout"]
        'True\\n'
    """

    def __init__(self, on_output=None, max_chars=MAX_OUTPUT_CHARS, max_lines=MAX_OUTPUT_LINES, timeline=False):
        import autograd_py

        autograd_py.install_as_torch()
        self.on_output = on_output
        self.max_chars = max_chars
        self.max_lines = max_lines
        self.namespace = {}
        self.globals = SessionGlobals()  # grad mode, default dtype, seed, ...: per session
        self.history = GradHistory()
        self.commands = 0
        self._jacobian = None  # (output, input, matrix) of the Jacobian the view shows
        self.freeing = FreeingCalls()  # which user line last freed a graph
        self._script = None  # (filename, code) of the command running now
        self.record_timeline = timeline
        self._timeline = None  # the last run's (see ``timeline``)
        self.timeline_focus = None  # the loop iteration a replay keeps (``timeline_replay``)
        self.pass_focus = None  # the backward pass a replay keeps (``timeline_passes``)
        self._provenance = None  # lines and orders of the last run's nodes
        self.reset()

    def reset(self):
        """Forgets every name the user defined, and any grad mode, dtype, seed or print option set."""
        self.globals.reset()
        forward_ad.exit_all_levels()  # a level the last run entered and never left
        self.namespace.clear()
        self.namespace.update({"__name__": "__main__", "__builtins__": __builtins__})
        self.history.clear()
        self.freeing.clear()
        self._jacobian = None
        self._timeline = self._provenance = None
        return {"ok": True}

    def run(self, code, fresh=True):
        """Runs a whole editor buffer as a script, in a fresh namespace, as ``python file.py`` would.

        Names, grad mode, dtype, seed and print options of earlier runs and console lines are
        forgotten first, so one lesson's tensors never leak into the next; the console
        (``eval_line``) and the views then work in this run's namespace.

        Args:
            code (str): Python source, as typed in the editor.
            fresh (bool, optional): start from a fresh namespace. ``False`` runs the code in the
                current one, as a multi-line console entry. Defaults to ``True``.

        Returns:
            dict: ``{"ok", "stdout", "stderr", "error", "duration_ms"}`` where
            ``error`` is ``None`` or ``{"type", "message", "lineno",
            "traceback"}`` and every line number is the editor's; plus the
            views' ``graph``, ``trace``, ``grad_history`` and ``failed_node``, and ``fresh``
            (the views forget their choices, such as the backward root, of earlier runs); and
            ``timeline``, the run's steps (``timeline.Timeline.export``), with every graph node's
            ``line`` and ``order`` (``provenance``).
        """
        if fresh:
            self.reset()
        return {**self._execute(code, EDITOR_FILENAME, "exec"), "fresh": fresh}

    def eval_line(self, src):
        """Runs one console entry; an expression's ``repr`` is printed, as in a REPL.

        Args:
            src (str): a statement or an expression.

        Returns:
            dict: the same shape as ``run``.
        """
        return self._execute(src, CONSOLE_FILENAME, "single")

    def inspect(self, name, step):
        """A variable as it was after ``step`` of the last run's timeline, for the editor's hover.

        Only what the timeline recorded (module-level tensors and named modules' parameters); a step
        inside folded loop iterations gets the stored step before it (``exact`` False, ``at_step``).

        Args:
            name (str): a variable name (``w``, or ``model.weight``).
            step (int): a step number (``step`` of the timeline's steps).

        Returns:
            dict: ``{"ok", "name", "step", "at_step", "exact", "bound", "tensor"}``.
        """
        return timeline_requests.answer(self, "inspect", {"name": name, "step": step}, GRAPH_BUDGET)

    def backward(self, request):
        """Runs an interactive backward: the call is built from ``request`` and run like a console line.

        Args:
            request (dict): ``{"root", "gradient": {"kind": "ones"|"onehot"|"custom", "index",
                "values"}, "retain_graph", "create_graph", "watch"}``; ``watch`` names a tensor
                whose ``.grad`` change is reported (the Jacobian view's input).

        Returns:
            dict: ``run``'s shape plus ``echo`` (the Python that ran), and, when ``watch`` is set,
            ``grad_delta``, ``jacobian_row`` (one-hot gradients) and ``vjp_check`` (when the
            Jacobian of this root w.r.t. ``watch`` is known). A bad request returns
            ``{"ok": False, "error": {"type": "RequestError", "code", ...}}`` and runs nothing.
        """
        try:
            plan = plan_backward(self.namespace, request)
            watched = watched_tensor(self.namespace, request.get("watch"))
        except RequestError as exc:
            return {"ok": False, "stdout": "", "stderr": "", "error": exc.to_json(), "duration_ms": 0,
                    "request_error": True}
        before = None if watched is None or watched._grad is None else watched._grad._data.astype("float64")
        if self.on_output is not None:  # the call goes to the console first, as if typed there
            self.on_output("echo", "".join(f">>> {line}\n" for line in plan.source.splitlines()))
        result = self._execute(plan.source, CONSOLE_FILENAME, "exec")
        result["echo"] = plan.source
        if watched is not None and result["ok"]:
            after = watched._grad._data.astype("float64") if watched._grad is not None else None
            delta = (after if before is None else after - before) if after is not None else None
            result.update(grad_change_report(plan, request.get("watch"), watched, delta, self._jacobian))
        return result

    def compare_modes(self, function, input):
        """The forward-vs-reverse panel: one Jacobian both ways (see ``jacobian_modes.compare``)."""
        try:
            return compare(self.namespace, function, input)
        except RequestError as exc:
            return {"ok": False, "error": exc.to_json(), "request_error": True}

    def jacobian(self, output, input):
        """The Jacobian d output / d input for the view (see ``backward.jacobian``)."""
        try:
            result = jacobian(self.namespace, output, input)
        except RequestError as exc:
            return {"ok": False, "error": exc.to_json(), "request_error": True}
        if result["ok"]:
            self._jacobian = result.pop("_tensors")
        elif result.get("failed_node") is not None:  # a freed graph: the fix is where it was freed
            failed = {**result["failed_node"], "kind": "freed", "stage": "during"}
            failed["fixes"] = self._fixes(failed, None, CONSOLE_FILENAME, None)
            result["failed_node"] = failed
        return result

    def request_json(self, text):
        """Answers one JSON request of the views (``backward``, ``jacobian``, ``describe``, ``compare_modes``, ``reset``)."""
        try:
            request = json.loads(text)
            kind = request.get("type")
            with self.globals.active():
                result = self._answer(kind, request)
        except RequestError as exc:
            result = {"ok": False, "error": exc.to_json(), "request_error": True}
        return _dumps(result)

    def _answer(self, kind, request):
        if kind == "backward":
            return self.backward(request)
        if kind == "jacobian":
            return self.jacobian(request.get("output"), request.get("input"))
        if timeline_requests.handles(kind, request):  # the slider is back, or the hover
            return timeline_requests.answer(self, kind, request, GRAPH_BUDGET)
        if kind == "describe":
            return describe(self.namespace, request.get("node"))
        if kind == "compare_modes":
            return self.compare_modes(request.get("function"), request.get("input"))
        if kind == "reset":
            return {**self.reset(), "stdout": "", "stderr": "", "error": None, "duration_ms": 0,
                    **self._views(None, None)}
        raise RequestError("bad_request", f"unknown request type {kind!r}", kind=str(kind))

    def run_json(self, code):
        """``run`` with a JSON string result, for the web worker."""
        return _dumps(self.run(code))

    def eval_json(self, src):
        """``eval_line`` with a JSON string result, for the web worker."""
        return _dumps(self.eval_line(src))

    def _on_pass(self, when, recorder):
        if self._timeline is not None and self._script is not None and self._script[0] == EDITOR_FILENAME:
            self._timeline.on_pass(when, recorder)
        line = recorder.where[1] if recorder.where else None
        self.history.snapshot(self.namespace, {"kind": when, "pass": recorder.passes, "line": line,
                                               "command": self.commands})
        if when == "after":
            nodes = [f"f{e['node']}" for e in recorder.events if e["event"] == "node" and e.get("freed")]
            self.freeing.note(recorder.where, bool(nodes), self._script, nodes)

    def _fixes(self, failed, code, filename, lineno):
        """The quick fixes the graph offers for ``failed``, raised on ``lineno`` of ``filename``."""
        if failed["kind"] == "freed":  # the fix is at the call that freed the node, maybe another command's
            fix = self.freeing.fix_for(failed["id"])
            return [with_comment({"kind": "retain_graph", **fix})] if fix else []
        if filename != EDITOR_FILENAME or lineno is None:
            return []
        return [with_comment(fix) for fix in for_error(failed, code, lineno, torch_name(self.namespace))]

    def _views(self, recorder, failed, where=None, stopped=None):
        views = {"graph": None, "trace": None, "failed_node": failed, "command": self.commands}
        try:
            # ``reach``: each node's gradient flow, read by the page when a node is selected
            views["graph"] = add_reach(graph.export(self.namespace, budget=GRAPH_BUDGET, provenance=self._provenance))
            views["functions"] = callables(self.namespace)  # what the forward-vs-reverse panel offers
            # The Backward & Jacobian view explains a freed graph before anyone hits the error.
            views["freed_tensors"] = freed_tensor_ids([t for _, t in graph.named_tensors(self.namespace)])
            views["freed_by"] = self.freeing.export()
        except Exception as exc:  # a view must never turn a good run into a failure
            views["graph_error"] = f"{type(exc).__name__}: {exc}"
        # A backward that raised ends its steps with the error (``stopped``: one off the graph).
        stopped = failed if failed is not None else stopped
        if recorder is not None and stopped is not None and stopped.get("stage") == "before":
            views["trace"] = recorder.unstarted_json(stopped, where)  # it raised before it began
        elif recorder is not None and recorder.passes:
            views["trace"] = recorder.steps_json(stopped)
        views["grad_history"] = self.history.export(self.namespace)
        return views

    def _execute(self, code, filename, mode):
        capture = OutputCapture(self.on_output, self.max_chars, self.max_lines)
        stdout, stderr = _StreamWriter(capture, "stdout"), _StreamWriter(capture, "stderr")
        # Registering the source lets tracebacks and warnings quote the user's lines.
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        saved = sys.stdout, sys.stderr, sys.displayhook, warnings.showwarning
        self.commands += 1
        self._script = (filename, code)
        recorder = PassRecorder(line_finder=_innermost_user_line, on_boundary=self._on_pass)
        previous_listener = engine.set_listener(recorder)
        forward = ForwardRecorder()
        timeline = contextlib.nullcontext()
        if self.record_timeline and filename == EDITOR_FILENAME and mode == "exec":  # a run's timeline
            self._provenance = Provenance(filename)
            self._timeline = timeline = Timeline(self.namespace, code, self._provenance, filename,
                                                 focus=self.timeline_focus)
            timeline.start_generator = self.globals.values["generator"]  # what a replay starts from
            recorder.keeper = timeline.passes = KeptPasses(timeline.node_id, focus=self.pass_focus)
        error = failed = stopped = None
        start = time.perf_counter()
        try:
            sys.stdout, sys.stderr = stdout, stderr
            sys.displayhook = _display_to(stdout)
            with warnings.catch_warnings(), self.globals.active(), forward:
                # "always": a learner who repeats a mistake must see the warning again.
                warnings.simplefilter("always")
                warnings.showwarning = _warning_printer(capture)
                compiled = compile(code, filename, mode, dont_inherit=True)
                if timeline is self._timeline:
                    compiled = _with_step_hooks(timeline, compiled)
                with self._provenance if timeline is self._timeline else contextlib.nullcontext(), timeline:
                    exec(compiled, self.namespace)
        except BaseException as exc:  # the user's KeyboardInterrupt/SystemExit too
            error = describe_error(exc, filename)
            failed = failed_node(exc, self.namespace, recorder)
            if failed is not None:
                failed["fixes"] = self._fixes(failed, code, filename, error["lineno"])
            else:
                stopped = backward_error(exc)
        finally:
            self._script = None
            engine.set_listener(previous_listener)
            sys.stdout, sys.stderr, sys.displayhook, warnings.showwarning = saved
            capture.flush()
        duration_ms = round((time.perf_counter() - start) * 1000, 3)
        with self.globals.active():  # the views format values with this session's print options
            self.history.snapshot(self.namespace, {"kind": "command", "command": self.commands})
            views = self._views(recorder, failed, (filename, error["lineno"]) if error else None, stopped)
            views["forward"] = forward.export(self.namespace) if forward.ops else None
            if timeline is self._timeline:
                try:
                    views["timeline"] = timeline.export(views["graph"])
                except Exception as exc:  # a view must never turn a good run into a failure
                    views["timeline"], views["timeline_error"] = None, f"{type(exc).__name__}: {exc}"
        return {
            "ok": error is None,
            "stdout": capture.text("stdout"),
            "stderr": capture.text("stderr"),
            "error": error,
            "duration_ms": duration_ms,
            **views,
        }


def _dumps(result):
    """JSON for the page; ``JSON.parse`` has no NaN or Infinity, so those become strings."""
    try:
        return json.dumps(result, allow_nan=False)
    except ValueError:
        return json.dumps(json_safe(result), allow_nan=False)


def _with_step_hooks(timeline, compiled):
    """The run's code with the timeline's calls (``step_hooks``), or as it is if that fails.

    The code was compiled as typed first, so a syntax error and its warnings are the code's own.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings were shown by the first compile
            return timeline.compile()
    except Exception as exc:  # the timeline stays empty; the run must not suffer
        timeline.error = f"{type(exc).__name__}: {exc}"
        return compiled
