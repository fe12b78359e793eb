"""Captured output of one playground run: batched streaming to the page, with a size cap.

Split out of ``session`` to keep modules small; ``session`` re-exports these names.
"""
import time

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
