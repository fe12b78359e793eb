"""``torch.cuda`` of a CPU-only build: nothing is available, and what needs a GPU fails with
PyTorch's "Torch not compiled with CUDA enabled"."""
from .devices import NO_CUDA


def is_available():
    """Returns False: there is no CUDA here (so ``"cuda" if torch.cuda.is_available() else "cpu"`` picks the CPU)."""
    return False


def device_count():
    """Returns 0, the number of CUDA devices."""
    return 0


def is_initialized():
    return False


def is_bf16_supported(including_emulation=True):
    return False


def _no_op(*args, **kwargs):
    """Does nothing without CUDA, as in PyTorch (seeding and cache calls are safe to leave in)."""
    return None


manual_seed = manual_seed_all = seed = seed_all = empty_cache = ipc_collect = _no_op
reset_peak_memory_stats = reset_max_memory_allocated = _no_op


def _zero(device=None):
    return 0


memory_allocated = max_memory_allocated = memory_reserved = max_memory_reserved = _zero


def _not_compiled(*args, **kwargs):
    raise AssertionError(NO_CUDA)


current_device = get_device_name = get_device_capability = get_device_properties = _not_compiled
synchronize = init = initial_seed = get_rng_state = set_rng_state = mem_get_info = _not_compiled
current_stream = default_stream = set_device = _not_compiled
