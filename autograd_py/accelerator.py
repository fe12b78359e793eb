"""``torch.accelerator``: the device-agnostic accelerator API; there is no accelerator here."""
from .devices import NO_ACCELERATOR


def is_available():
    """Returns False: no accelerator (CUDA, MPS, XPU, ...) is present."""
    return False


def device_count():
    """Returns 0, the number of accelerator devices."""
    return 0


def current_accelerator(check_available=False):
    """Returns the accelerator's ``torch.device``, or None when there is none (always, here).

    Args:
        check_available (bool, optional): return None also when one is built in but unusable.
            Defaults to ``False``.
    """
    return None


def _none_available(*args, **kwargs):
    raise RuntimeError(NO_ACCELERATOR)


current_device_index = current_device_idx = set_device_index = set_device_idx = _none_available
synchronize = empty_cache = memory_allocated = max_memory_allocated = memory_reserved = _none_available
get_memory_info = current_stream = set_stream = _none_available
