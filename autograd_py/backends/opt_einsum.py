"""``torch.backends.opt_einsum``: the opt-einsum package is not there, so ``torch.einsum`` contracts
its operands left to right, as PyTorch does without it."""
from contextlib import contextmanager

enabled = False
strategy = None


def is_available():
    """False: opt-einsum is not installed, so no contraction path is computed."""
    return False


def get_opt_einsum():
    """The opt_einsum package if it was imported (never here): None."""
    return None


def set_flags(_enabled=None, _strategy=None):
    global enabled
    orig = (enabled, None)
    if _enabled is not None:
        enabled = _enabled
    if _strategy is not None:
        raise ValueError(f"opt_einsum is not available, so setting `strategy` to {_strategy} will not be "
                         "meaningful. torch.einsum will bypass path calculation and simply contract from left to "
                         "right. Please install opt_einsum or unset `strategy`.")
    return orig


@contextmanager
def flags(enabled=None, strategy=None):
    orig = set_flags(enabled, strategy)
    try:
        yield
    finally:
        set_flags(*orig)
