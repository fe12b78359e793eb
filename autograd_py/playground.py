"""The Python half of the browser playground: a notebook-like session.

The web worker owns Pyodide and talks to this module only through plain
strings (``Session.run_json``), so no Python object ever has to cross into
JavaScript. Everything here is ordinary CPython code and is unit-tested
outside the browser; this module never imports ``js`` or ``pyodide``.

Example::

    >>> session = Session()
    >>> result = session.run("x = 2 + 3\\nprint(x)")
    >>> result["ok"], result["stdout"]
    (True, '5\\n')
    >>> session.eval_line("x * 10")["stdout"]
    '50\\n'
"""

import ast
import json
import linecache
import sys
import time
import traceback
import warnings

EDITOR_FILENAME = "<editor>"
CONSOLE_FILENAME = "<console>"
USER_FILENAMES = (EDITOR_FILENAME, CONSOLE_FILENAME)

MAX_OUTPUT_CHARS = 2_000_000
MAX_OUTPUT_LINES = 20_000
FLUSH_INTERVAL_S = 0.05
FLUSH_CHARS = 64 * 1024

TRUNCATION_NOTE = (
    "\n[output truncated: more than {lines:,} lines or {chars:,} characters; "
    "the rest of this run's output was dropped]\n"
)


class OutputCapture:
    """Collects one run's stdout/stderr and streams it to a callback.

    Streaming is batched: text is handed to ``on_output(stream, text)`` at most
    every ``FLUSH_INTERVAL_S`` seconds (or once ``FLUSH_CHARS`` are pending),
    because a synchronous Python run cannot yield to a JavaScript timer and
    one message per ``print`` would swamp the page. After the cap is reached
    the rest is dropped, with a single note, so a runaway ``print`` loop costs
    almost nothing per call.

    Args:
        on_output (callable or None): called as ``on_output(stream, text)``
            with ``stream`` in ``"stdout"``, ``"stderr"``, ``"warning"``.
        max_chars (int): total characters kept for the run.
        max_lines (int): total lines kept for the run.
    """

    def __init__(self, on_output=None, max_chars=MAX_OUTPUT_CHARS, max_lines=MAX_OUTPUT_LINES):
        self.on_output = on_output
        self.max_chars = max_chars
        self.max_lines = max_lines
        self.chars = 0
        self.lines = 0
        self.truncated = False
        self.kept = {"stdout": [], "stderr": []}
        self._pending = []  # [stream, text] segments, in order
        self._pending_chars = 0
        self._last_flush = time.monotonic()

    def write(self, stream, text):
        """Records ``text`` for ``stream``; returns ``len(text)`` like ``io`` does."""
        if not text or self.truncated:
            return len(text)
        text = self._fit_to_cap(text)
        self._keep(stream, text)
        if self.truncated:
            note = TRUNCATION_NOTE.format(lines=self.max_lines, chars=self.max_chars)
            self._keep("stderr", note)
            self.flush()
        elif self._pending_chars >= FLUSH_CHARS or time.monotonic() - self._last_flush >= FLUSH_INTERVAL_S:
            self.flush()
        return len(text)

    def flush(self):
        """Hands every pending segment to the callback, oldest first."""
        pending, self._pending, self._pending_chars = self._pending, [], 0
        self._last_flush = time.monotonic()
        if self.on_output is None:
            return
        for stream, text in pending:
            self.on_output(stream, text)

    def text(self, stream):
        return "".join(self.kept[stream])

    def _fit_to_cap(self, text):
        cut = len(text)
        room_lines = self.max_lines - self.lines
        if text.count("\n") >= room_lines:
            # Keep up to the last allowed newline: no partial line past the cap.
            end = -1
            for _ in range(room_lines):
                end = text.index("\n", end + 1)
            cut = end + 1
        cut = min(cut, self.max_chars - self.chars)
        if cut < len(text):
            self.truncated = True
        self.chars += cut
        self.lines += text.count("\n", 0, cut)
        return text[:cut]

    def _keep(self, stream, text):
        if not text:
            return
        # Warnings are stderr for the result; the stream name lets the page style them.
        self.kept["stdout" if stream == "stdout" else "stderr"].append(text)
        if self._pending and self._pending[-1][0] == stream:
            self._pending[-1][1] += text
        else:
            self._pending.append([stream, text])
        self._pending_chars += len(text)


class _StreamWriter:
    """A minimal text file object that forwards to an ``OutputCapture``."""

    encoding = "utf-8"
    errors = "strict"

    def __init__(self, capture, stream):
        self._capture = capture
        self._stream = stream

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        return self._capture.write(self._stream, text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def isatty(self):
        return False

    def writable(self):
        return True


def _innermost_user_line():
    """Line number of the innermost frame running user code, or None."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename in USER_FILENAMES:
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return None


class Session:
    """A persistent Python namespace in which ``torch`` is ``autograd_py``.

    Like a notebook kernel, names defined by one ``run`` stay visible to the
    next one and to ``eval_line`` until ``reset``.

    Args:
        on_output (callable or None): receives streamed output as
            ``on_output(stream, text)``; see ``OutputCapture``.
        max_chars (int): per-run cap on captured output characters.
        max_lines (int): per-run cap on captured output lines.

    Example::

        >>> s = Session()
        >>> s.run("import torch\\nx = torch.ones(2, requires_grad=True)")["ok"]
        True
        >>> s.eval_line("x.requires_grad")["stdout"]
        'True\\n'
    """

    def __init__(self, on_output=None, max_chars=MAX_OUTPUT_CHARS, max_lines=MAX_OUTPUT_LINES):
        import autograd_py

        autograd_py.install_as_torch()
        self.on_output = on_output
        self.max_chars = max_chars
        self.max_lines = max_lines
        self.namespace = {}
        self.reset()

    def reset(self):
        """Forgets every name the user defined."""
        self.namespace.clear()
        self.namespace.update({"__name__": "__main__", "__builtins__": __builtins__})
        return {"ok": True}

    def run(self, code):
        """Runs a whole editor buffer in the session namespace.

        Args:
            code (str): Python source, as typed in the editor.

        Returns:
            dict: ``{"ok", "stdout", "stderr", "error", "duration_ms"}`` where
            ``error`` is ``None`` or ``{"type", "message", "lineno",
            "traceback"}`` and every line number is the editor's.
        """
        return self._execute(code, EDITOR_FILENAME, "exec")

    def eval_line(self, src):
        """Runs one console entry; an expression's ``repr`` is printed, as in a REPL.

        Args:
            src (str): a statement or an expression.

        Returns:
            dict: the same shape as ``run``.
        """
        return self._execute(src, CONSOLE_FILENAME, "single")

    def run_json(self, code):
        """``run`` with a JSON string result, for the web worker."""
        return json.dumps(self.run(code))

    def eval_json(self, src):
        """``eval_line`` with a JSON string result, for the web worker."""
        return json.dumps(self.eval_line(src))

    def _execute(self, code, filename, mode):
        capture = OutputCapture(self.on_output, self.max_chars, self.max_lines)
        stdout, stderr = _StreamWriter(capture, "stdout"), _StreamWriter(capture, "stderr")
        # Registering the source lets tracebacks and warnings quote the user's lines.
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        saved = sys.stdout, sys.stderr, sys.displayhook, warnings.showwarning
        error = None
        start = time.perf_counter()
        try:
            sys.stdout, sys.stderr = stdout, stderr
            sys.displayhook = _display_to(stdout)
            with warnings.catch_warnings():
                # "always": a learner who repeats a mistake must see the warning again.
                warnings.simplefilter("always")
                warnings.showwarning = _warning_printer(capture)
                compiled = compile(code, filename, mode, dont_inherit=True)
                exec(compiled, self.namespace)
        except BaseException as exc:  # the user's KeyboardInterrupt/SystemExit too
            error = describe_error(exc, filename)
        finally:
            sys.stdout, sys.stderr, sys.displayhook, warnings.showwarning = saved
            capture.flush()
        return {
            "ok": error is None,
            "stdout": capture.text("stdout"),
            "stderr": capture.text("stderr"),
            "error": error,
            "duration_ms": round((time.perf_counter() - start) * 1000, 3),
        }


def _display_to(stdout):
    """A ``sys.displayhook`` that prints reprs to ``stdout``, like the REPL."""

    def display(value):
        if value is None:
            return
        import builtins

        builtins._ = value
        stdout.write(repr(value) + "\n")

    return display


def _warning_printer(capture):
    """A ``warnings.showwarning`` that points at the user's line.

    A warning raised deep inside ``autograd_py`` is attributed to the user's
    innermost line, as PyTorch's C++ warnings are, so the learner sees
    ``<editor>:4: UserWarning: ...`` rather than a library path.
    """

    def show(message, category, filename, lineno, file=None, line=None):
        if filename not in USER_FILENAMES:
            where = _innermost_user_line()
            if where is not None:
                filename, lineno = where
                line = None
        text = warnings.formatwarning(message, category, filename, lineno, line)
        capture.write("warning", text)

    return show


def describe_error(exc, filename):
    """Summarises an exception for the page, keeping only the user's frames.

    Args:
        exc (BaseException): the exception that ended the run.
        filename (str): the pseudo file name the run's code was compiled as.

    Returns:
        dict: ``{"type", "message", "lineno", "traceback"}``.
    """
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename in USER_FILENAMES]
    lineno = None
    for frame in frames:
        if frame.filename == filename:
            lineno = frame.lineno
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        lineno = exc.lineno
    parts = []
    if frames:
        parts.append("Traceback (most recent call last):\n")
        parts.extend(traceback.format_list(frames))
    parts.extend(traceback.format_exception_only(type(exc), exc))
    return {
        "type": type(exc).__name__,
        "message": _message_of(exc),
        "lineno": lineno,
        "traceback": "".join(parts),
    }


def _message_of(exc):
    if isinstance(exc, SyntaxError):
        return exc.msg or ""
    return str(exc)
