"""Run one golden snippet and capture what a learner would see.

The same capture is used by ``record.py`` (under real PyTorch) and by
``tests/test_golden.py`` (under ``autograd_py``), so any difference between
the two is a difference in behaviour, never in how it was observed.

A snippet is executed like a pasted script: fresh namespace, ``__name__`` set
to ``"__main__"``.  We capture

* ``stdout``: list of printed lines (the text split on ``"\\n"``),
* ``exception``: ``{"type": ..., "message": str(e)}`` of the uncaught
  exception, or ``None``,
* ``warnings``: ``[[category_name, message], ...]`` in emission order, with
  ``warnings.simplefilter("always")`` so repeated warnings are all seen.

Memory addresses (`` at 0x7f...``) are replaced by `` at 0x…`` because they
differ between runs.
"""

import builtins
import contextlib
import gc
import io
import json
import re
import sys
import warnings

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def normalise(text):
    """Replace memory addresses so that output is reproducible.

    Args:
        text (str): raw captured text.

    Returns:
        str: text with every `` at 0x<hex>`` turned into `` at 0x…``.

    Example::

        >>> normalise("<PowBackward0 object at 0x7f3a2b>")
        '<PowBackward0 object at 0x…>'
    """
    return _ADDRESS.sub(" at 0x\u2026", text)


def reset_torch_state():
    """Undo global state a previous snippet may have left behind.

    Snippets run one after another in a single process (the playground does
    the same), so grad mode must start enabled for every snippet.  Print
    options, default dtype, default device, warn_always and cudnn's flags are reset only when the module offers them, so
    that a missing convenience does not mask the real comparison.
    """
    torch = sys.modules.get("torch")
    if torch is None:
        return
    torch.set_grad_enabled(True)
    set_printoptions = getattr(torch, "set_printoptions", None)
    if set_printoptions is not None:
        set_printoptions(profile="default")
    set_default_dtype = getattr(torch, "set_default_dtype", None)
    if set_default_dtype is not None:
        set_default_dtype(torch.float32)
    set_default_device = getattr(torch, "set_default_device", None)
    if set_default_device is not None:
        set_default_device(None)
    # A snippet that turns warn_always on would otherwise repeat every later
    # snippet's (and test's) warn-once warnings.
    set_warn_always = getattr(torch, "set_warn_always", None)
    if set_warn_always is not None:
        set_warn_always(False)
    # Reproducibility boilerplate sets these flags; what runs next (a test reading their
    # defaults, as test_api_parity does) must find PyTorch's.
    cudnn = getattr(getattr(torch, "backends", None), "cudnn", None)
    if cudnn is not None:
        cudnn.deterministic = cudnn.benchmark = False


def run_source(source, filename="<snippet>"):
    """Execute snippet source and capture stdout, exception and warnings.

    Args:
        source (str): the Python code of the snippet.
        filename (str): name used in the compiled code object.

    Returns:
        dict: ``{"stdout": [...], "exception": {...} or None,
        "warnings": [[category, message], ...]}``.
    """
    reset_torch_state()
    out = io.StringIO()
    exception = None
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # torch's forward AD loads TorchScript decompositions, which warn from inside torch on
        # every use; Python's default filters hide it from a learner (not raised in __main__).
        warnings.filterwarnings("ignore", message="`torch.jit.script` is deprecated", category=DeprecationWarning)
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(source, filename, "exec"), namespace)
            except Exception as e:  # the learner sees this as the traceback
                exception = {"type": type(e).__name__,
                             "message": normalise(str(e))}
    reset_torch_state()
    # A snippet's leftovers (an open TemporaryDirectory, say) must warn now, unseen, and not
    # inside the next snippet, which would then seem to emit a warning PyTorch never gave.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gc.collect()
    return {
        "stdout": normalise(out.getvalue()).split("\n"),
        "exception": exception,
        "warnings": [[w.category.__name__, normalise(str(w.message))]
                     for w in caught],
    }


def run_file(path):
    """Execute the snippet stored at ``path``; see :func:`run_source`."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    return run_source(source, filename=str(path))


def main(argv):
    """Command line: ``python runner.py SNIPPET.py`` prints the capture as JSON.

    ``record.py`` uses this to run each snippet in a fresh interpreter, so
    that once-per-process warnings of PyTorch appear in every snippet that
    triggers them.
    """
    result = run_file(argv[1])
    sys.stdout.write(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
