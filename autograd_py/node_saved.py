"""What a node saved, as PyTorch shows and checks it: the ``grad_fn._saved_<name>`` and
``_raw_saved_<name>`` properties (kept arguments as PyTorch prints them), and the unpack checks
that run before a formula (a freed graph, a saved tensor modified in place)."""
from .saved_tensor import FREED_MESSAGE, SavedTensor


def saved_map(node):
    """What ``node`` saved, by name: its ``_vars`` dict, or None.

    The hot ops save their one tensor as ``_vars`` itself, with its name on it (``SavedTensor.name``):
    a dict per op was a tenth of W1's forward, with the collector's share. The readers that need
    the names get the dict made here, which then stays; ``Node.saved``, and the check of saved
    versions before a formula, read the one tensor as it is.
    """
    saved = node._vars
    if saved.__class__ is SavedTensor:
        saved = node._vars = {saved.name: saved}
    return saved


def saved_states(node):
    """``{name: state}`` of what ``node`` saved: alive, freed or modified (the timeline asks for
    every watched node's after each backward pass, so a dict, not a generator; a function, not a
    method, as ``dir(grad_fn)`` shows PyTorch's names)."""
    if node._vars is None:
        return {}
    saved = saved_map(node)
    if node._freed:
        return dict.fromkeys(saved, "freed")
    return {key: value.state() if isinstance(value, SavedTensor) else "alive" for key, value in saved.items()}


# PyTorch's int64 arguments (dims, indices); its node attributes show them as unsigned 64-bit
# integers, so -1 reads 18446744073709551615. Scalars (alpha, exponent, min, ...) stay signed.
_INT64_NAMES = frozenset(("dim", "dim0", "dim1", "dims", "index", "start", "end", "step", "ignore_index"))


def _python_value(name, value):
    """A kept argument as PyTorch shows it: int lists as tuples, NumPy scalars as Python numbers."""
    if isinstance(value, list):
        value = tuple(value)
    elif hasattr(value, "item") and getattr(value, "ndim", None) == 0:
        value = value.item()
    if name in _INT64_NAMES:
        if isinstance(value, int) and value < 0:
            return value + 2 ** 64
        if isinstance(value, tuple):
            return tuple(v + 2 ** 64 if isinstance(v, int) and v < 0 else v for v in value)
    return value


def _wrapped_number(value):
    """``x * 2`` saves the 2 as a 0-dim tensor (int64 or float64), which ``_saved_other`` shows."""
    import numpy as np
    from .ops.base import _make
    dtype = np.bool_ if isinstance(value, bool) else np.int64 if isinstance(value, int) else np.float64
    return _make(np.asarray(value, dtype=dtype))


def _saved_property(name):
    return property(lambda node: node._get_saved(name))


def _raw_saved_property(name):
    return property(lambda node: node._get_raw_saved(name))


def _kept_value(node, name):
    # An instance's own value wins over a class-level default or derived property (``self_sym_sizes``).
    values = getattr(node, "__dict__", None)
    return _python_value(name, values[name] if values and name in values else getattr(node, name))


def _kept_property(name):
    return property(lambda node: _kept_value(node, name))


def _check_saved(node):
    """PyTorch unpacks every saved tensor before a node's formula runs, so a freed graph or a tensor
    modified in place raises even when this backward would not read it."""
    for value in saved_map(node).values():
        cls = value.__class__
        if cls is SavedTensor:
            if node._freed:
                raise RuntimeError(FREED_MESSAGE)
            if value.counter[0] != value.version and value.hooks is None:
                _raise_first_modified(node)
        elif cls is list:
            for v in value:
                if v.__class__ is SavedTensor:
                    if node._freed:
                        raise RuntimeError(FREED_MESSAGE)
                    if v.counter[0] != v.version and v.hooks is None:
                        _raise_first_modified(node)


def _raise_first_modified(node):
    """The generated nodes unpack their saved inputs, then their saved outputs, each in name order:
    the first modified one in that order is the one PyTorch reports."""
    saved = []
    for key, value in saved_map(node).items():
        for v in (value if value.__class__ is list else (value,)):
            if v.__class__ is SavedTensor:
                saved.append((v.is_output, key, v))
    for _, _, v in sorted(saved, key=lambda item: item[:2]):
        if v.hooks is None and v.counter[0] != v.version:
            v._raise_modified(node, v.counter[0])
