"""PyTorch's TORCH_WARN_ONCE: some warnings appear once per process, not once per call site."""
import warnings

_seen = set()


def warn_once(message, category=UserWarning, stacklevel=3):
    if message in _seen:
        return
    _seen.add(message)
    warnings.warn(message, category, stacklevel=stacklevel)
