"""How a user's code meets Python in the session: the pseudo file names it runs under, the REPL's
display hook, warnings pointed at the user's line and the error summary the page shows, which
keeps only the user's frames.
"""
import sys
import traceback
import warnings

EDITOR_FILENAME = "<editor>"
CONSOLE_FILENAME = "<console>"
USER_FILENAMES = (EDITOR_FILENAME, CONSOLE_FILENAME)


def _innermost_user_line():
    """Line number of the innermost frame running user code, or None."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename in USER_FILENAMES:
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return None


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
