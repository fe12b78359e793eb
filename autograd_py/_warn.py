"""PyTorch's TORCH_WARN_ONCE: some warnings appear once per process, not once per call site."""
import warnings

_seen = set()
_always = [False]


def set_warn_always(b):
    """Makes warnings PyTorch gives once per process (TORCH_WARN_ONCE) appear every time.

    Args:
        b (bool): ``True`` to warn every time, ``False`` for once per process.
    """
    _always[0] = bool(b)


def is_warn_always_enabled():
    """Returns True if once-per-process warnings are given every time (see :func:`set_warn_always`)."""
    return _always[0]


def warn_once(message, category=UserWarning, stacklevel=3):
    if message in _seen and not _always[0]:
        return
    _seen.add(message)
    warnings.warn(message, category, stacklevel=stacklevel)
