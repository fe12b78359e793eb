"""Process-wide settings that each playground session keeps for itself.

In PyTorch, ``torch.set_grad_enabled(False)``, ``torch.set_default_dtype``, ``torch.set_default_device``,
``torch.manual_seed`` or ``torch.set_printoptions`` change the whole process.
Several embeds on one course page share one Python runtime, each with its own
namespace; without this, one example's ``set_grad_enabled(False)`` would
silently turn off autograd in the next example. A session therefore swaps its
own copy of these settings in for each command and saves them afterwards, as
if every session were a process of its own.

Example::

    >>> a, b = SessionGlobals(), SessionGlobals()
    >>> with a.active():
    ...     autograd_py.set_grad_enabled(False)
    >>> with b.active():
    ...     autograd_py.is_grad_enabled()
    True
"""

import contextlib

from .. import _warn, devices, dtypes, formatting, grad_mode
from ..random import generator as _random

_PRINT_FIELDS = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")


def _read():
    opts = formatting.PRINT_OPTS
    return {
        "grad_enabled": grad_mode._state[0],
        "anomaly": grad_mode._anomaly[0],
        "inference": grad_mode._inference[0],
        "default_device": devices._default[0],
        "default_float": dtypes._default_float,
        "generator": _random.default_generator._snapshot(),  # includes the cached normal sample
        "print": tuple(getattr(opts, name) for name in _PRINT_FIELDS),
        "warned": _warn._seen,
    }


def _write(values):
    grad_mode._state[0] = values["grad_enabled"]
    grad_mode._anomaly[0] = values["anomaly"]
    grad_mode._inference[0] = values["inference"]
    devices._default[0] = values["default_device"]
    dtypes._default_float = values["default_float"]
    _random.default_generator._restore(values["generator"])
    for name, value in zip(_PRINT_FIELDS, values["print"]):
        setattr(formatting.PRINT_OPTS, name, value)
    _warn._seen = values["warned"]


def _fresh():
    """The settings of a newly started process."""
    return {
        "grad_enabled": True,
        "anomaly": False,
        "inference": False,
        "default_device": None,
        "default_float": dtypes.float32,
        "generator": _random.fresh_default()._snapshot(),  # nondeterministic, as a new process
        "print": tuple(getattr(formatting.PrintOptions, name) for name in _PRINT_FIELDS),
        "warned": set(),
    }


class SessionGlobals:
    """One session's copy of the process-wide settings, as a fresh process has them."""

    def __init__(self):
        self.values = _fresh()
        self._active = False

    def reset(self):
        """Back to a fresh process's settings (``Session.reset``)."""
        self.values = _fresh()
        if self._active:
            _write(self.values)

    @contextlib.contextmanager
    def active(self):
        """Makes this session's settings the process's while the block runs, then saves them back."""
        if self._active:  # a request nested in one of this session's own
            yield
            return
        outer = _read()
        _write(self.values)
        self._active = True
        try:
            yield
        finally:
            self._active = False
            self.values = _read()
            _write(outer)
