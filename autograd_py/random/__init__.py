"""``torch.random``: the default generator, seeding, and saving or restoring its state.

Seeded numbers match PyTorch's CPU generator bit for bit (see :mod:`.generator`). A fresh process
seeds the default generator nondeterministically, as PyTorch does; call :func:`manual_seed` for
repeatable numbers.
"""
import contextlib

from . import generator as _generator
from .generator import Generator, default_generator


def manual_seed(seed):
    """Seeds the default generator and returns it (a torch.Generator).

    Args:
        seed (int): any int in ``[-2**63, 2**64)``; negative seeds wrap modulo ``2**64``.

    Example::

        >>> torch.manual_seed(0).initial_seed()
        0
    """
    return _generator.default_generator.manual_seed(int(seed))


def seed():
    """Seeds the default generator nondeterministically and returns the seed."""
    return _generator.default_generator.seed()


def initial_seed():
    """The default generator's seed."""
    return _generator.default_generator.initial_seed()


def get_rng_state():
    """The default generator's state as a ``torch.ByteTensor`` of 5056 bytes (PyTorch's layout)."""
    return _generator.default_generator.get_state()


def set_rng_state(new_state):
    """Restores the default generator from a state of :func:`get_rng_state` (or real PyTorch's)."""
    _generator.default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    """A context in which the default generator may be reseeded or drawn from; its state is
    restored on exit.

    Example::

        >>> with torch.random.fork_rng():
        ...     _ = torch.manual_seed(1)
    """
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)


__all__ = ["Generator", "default_generator", "fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state"]
