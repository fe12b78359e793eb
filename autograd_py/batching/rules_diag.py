"""Batching rules for the diagonal family (``diagonal``, ``diag_embed``, ``diag``, ``trace``): the
example's dims move one place right, past the batch dim, as functorch's rules for them do.
``einsum`` and ``movedim`` need none: they are built from ops that have rules."""
from .batched import wrap
from .rules import _get, _shift, logical_rank


def diagonal(level, call, args, kwargs):
    x = args[0]
    n = logical_rank(x, level)
    offset = _get(args, kwargs, 1, "offset", 0)
    d1, d2 = _get(args, kwargs, 2, "dim1", 0), _get(args, kwargs, 3, "dim2", 1)
    return wrap(x._value.diagonal(offset, _shift(d1, n), _shift(d2, n)), level)


def diag_embed(level, call, args, kwargs):
    from ..ops.diagonal import diag_embed as embed
    x = args[0]
    n = logical_rank(x, level)
    offset = _get(args, kwargs, 1, "offset", 0)
    d1, d2 = _get(args, kwargs, 2, "dim1", -2), _get(args, kwargs, 3, "dim2", -1)
    return wrap(embed(x._value, offset, _shift(d1, n + 1), _shift(d2, n + 1)), level)


def diag(level, call, args, kwargs):
    from ..ops.diagonal import diag_embed as embed
    x = args[0]
    n = logical_rank(x, level)
    offset = _get(args, kwargs, 1, "diagonal", 0)
    if n == 1:
        return wrap(embed(x._value, offset, 1, 2), level)
    if n != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {n}D")
    return wrap(x._value.diagonal(offset, 1, 2).clone(), level)


def trace(level, call, args, kwargs):
    x = args[0]
    n = logical_rank(x, level)
    if n != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {n}")
    return wrap(x._value.diagonal(0, 1, 2).sum(-1), level)
