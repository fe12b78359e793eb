"""Batching rules: how each op runs once on a whole batch under ``vmap``.

A rule gets the vmap ``level``, ``call`` (the op itself, dispatching again for outer levels) and
the op's logical arguments. It rewrites them onto the physical values, whose dim 0 is the batch,
calls the op once and wraps the result. The families, as functorch's batching rules:

- elementwise ops broadcast: each batched operand gets size-1 dims after its batch dim so that
  every operand's logical dims line up on the right;
- ops with a ``dim`` shift it past the batch dim (``dim=None`` means every logical dim);
- shape ops put the batch size in front of the requested shape;
- the matmul family makes vectors matrices, lines up the batch dims, and squeezes back
  (``rules_matmul``);
- indexing puts a full slice (or, for batched index tensors, a batch ``arange``) in front
  (``rules_index``); ``torch.nn.functional`` has ``rules_nn``.

Ops without a rule run once per example (``fallback``) with PyTorch's performance warning.
"""
import warnings

from .._tensor import Tensor
from .batched import (BatchedTensor, VmapRefusal, batch_size, is_batched_at, levels, physical, primal_levels,
                      rebuilt, unbatched_write, wrap)

FALLBACK_WARNING = ("There is a performance drop because we have not yet implemented the batching rule for "
                    "aten::{name}. Please file us an issue on GitHub so that we can prioritize its implementation. "
                    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/functorch/BatchedFallback.cpp:82.)")


def logical_rank(x, level):
    if is_batched_at(x, level):
        return x._value.dim() - 1
    return x.dim() if isinstance(x, Tensor) else 0


def _wrap_dim(d, n):
    from ..ops.shape import _wrap_dim as wrap_dim
    return wrap_dim(d, n)


def _pad(v, k):
    """``k`` size-1 dims inserted after the batch dim."""
    for _ in range(k):
        v = v.unsqueeze(1)
    return v


def _aligned(x, level, rank):
    if type(x) is BatchedTensor and x._level == level:
        value = x._value
        pad = rank + 1 - value.dim()
        return _pad(value, pad) if pad else value
    return x


def _expanded(x, level):
    """``x`` with a batch dim at ``level``: its value, or an unbatched tensor expanded to the batch."""
    if is_batched_at(x, level):
        return x._value
    return x.unsqueeze(0).expand(batch_size(level), *x.shape)


# ---------------------------------------------------------------------------- elementwise
def type_as(level, call, args, kwargs):
    """``x.type_as(other)`` takes only ``other``'s dtype: ``x`` keeps its shape (no broadcasting)."""
    x, other = args[0], args[1]
    if is_batched_at(x, level):
        return wrap(x._value.to(other.dtype), level)
    return call(x, other._value if is_batched_at(other, level) else other)


def elementwise(level, call, args, kwargs):
    rank = 0
    for a in (*args, *kwargs.values()) if kwargs else args:  # the highest logical rank among the tensors
        if isinstance(a, Tensor):
            r = a._value.dim() - 1 if type(a) is BatchedTensor and a._level == level else a.dim()
            if r > rank:
                rank = r
    args = [_aligned(a, level, rank) for a in args]
    if kwargs:
        kwargs = {k: _aligned(v, level, rank) for k, v in kwargs.items()}
    return wrap(call(*args, **kwargs), level)


def inplace(level, call, args, kwargs):
    """``x.add_(y)``: in place on the physical value of a batched ``x``; into an unbatched ``x``
    the batch cannot fit, and the op's own broadcast error says so, as in PyTorch."""
    self = args[0]
    if not is_batched_at(self, level):
        name = call.__name__
        if name in ("add_", "__iadd__"):  # PyTorch's add_ rule lets the op's broadcast check fail
            try:
                return call(*[physical(a, level) for a in args], **{k: physical(v, level) for k, v in kwargs.items()})
            except RuntimeError as error:
                raise VmapRefusal(str(error)) from None
        if name == "fill_":
            raise unbatched_write("fill_")
        if name == "masked_fill_" and is_batched_at(_get(list(args), kwargs, 2, "value"), level):
            raise unbatched_write("aten::masked_fill_", _depth(level))  # its fallback's check
        raise unbatched_write("inplace arithmetic")
    rank = logical_rank(self, level)
    call(self._value, *[_aligned(a, level, rank) for a in args[1:]],
         **{k: _aligned(v, level, rank) for k, v in kwargs.items()})
    return self


def _depth(level):
    """How many vmaps deep ``level`` is (PyTorch's level numbers)."""
    return next(i + 1 for i, (lv, _, _) in enumerate(levels) if lv == level)


def _overload(name, args, kwargs):
    """The ``aten::`` name of an in-place op PyTorch has no batching rule for, or None when the
    overload called has one (``pow_`` with a number exponent, ``clamp_min_``, ...)."""
    rest = list(args[1:]) + list(kwargs.values())
    if name in ("clamp_", "clip_"):
        return name + (".Tensor" if any(isinstance(a, Tensor) for a in rest) else "")
    if name == "lerp_":
        weight = _get(list(args), kwargs, 2, "weight")
        return "lerp_.Tensor" if isinstance(weight, Tensor) else "lerp_.Scalar"
    if name == "pow_":
        return "pow_.Tensor" if isinstance(_get(list(args), kwargs, 1, "exponent"), Tensor) else None
    return name if name in ("addcmul_", "addcdiv_", "square_") else None


def inplace_unruled(name):
    """``inplace`` for an op PyTorch runs through its slow fallback: the same result, with the
    fallback's performance warning each call."""
    def rule(level, call, args, kwargs):
        aten = _overload(name, args, kwargs)
        if aten is not None and any(is_batched_at(a, level) for a in list(args) + list(kwargs.values())):
            if level not in primal_levels:
                warnings.warn(FALLBACK_WARNING.format(name=aten), UserWarning, stacklevel=4)
            if not is_batched_at(args[0], level):  # the fallback's own check, naming the op and level
                raise unbatched_write("aten::" + aten.split(".")[0], _depth(level))
        return inplace(level, call, args, kwargs)
    return rule


# ---------------------------------------------------------------------------- dims
def _get(args, kwargs, pos, name, default=None):
    if len(args) > pos:
        return args[pos]
    return kwargs.get(name, default)


def _set(args, kwargs, pos, name, value):
    if len(args) > pos:
        args[pos] = value
    else:
        kwargs[name] = value


def _shift(d, n):
    if isinstance(d, (tuple, list)):
        return tuple(_wrap_dim(i, n) + 1 for i in d)
    return _wrap_dim(d, n) + 1


def dim_op(pos=1, name="dim", none="flat", offset=0, default=None):
    """A rule for an op with a ``dim`` argument at ``pos`` (or keyword ``name``).

    Args:
        none: what ``dim=None`` (or ``()``) means: ``"flat"``, the whole example (reduced as one
            flattened dim, as ``sum()`` or ``argmax()``), or ``"keep"``, the op's own default
            that is batch-safe as it is (``sort``'s last dim).
        offset: 1 for ops whose dim ranges over one more dim than the input has (unsqueeze).
        default: the op's default dim when it has one (``split``: 0).
    """
    def rule(level, call, args, kwargs):
        x = args[0]
        if not is_batched_at(x, level):
            return fallback(level, call, args, kwargs)
        args, kwargs = list(args), dict(kwargs)
        n = logical_rank(x, level)
        d = _get(args, kwargs, pos, name, default)
        v = x._value
        if d is None or d == ():
            if none == "keep":
                args[0] = v
                return wrap(call(*args, **kwargs), level)
            v, d = _flat(v) if n else v.unsqueeze(1), 1
            if _get(args, kwargs, pos + 1, "keepdim", False) is True:
                return fallback(level, call, args, kwargs)
        elif n == 0 and offset == 0:
            _wrap_dim(d if isinstance(d, int) else d[0], 0)  # PyTorch's range check for a 0-dim tensor
            args[0] = v.unsqueeze(1)
            _set(args, kwargs, pos, name, 1)
            return wrap(_squeeze_out(call(*args, **kwargs)), level)  # the example stays 0-dim
        else:
            d = _shift(d, n + offset)
        args[0] = v
        _set(args, kwargs, pos, name, d)
        return wrap(call(*args, **kwargs), level)
    return rule


def _flat(v):
    """``v.flatten(1)``, also for an empty batch (jacfwd of an empty input), where a -1 is ambiguous."""
    n = 1
    for s in v.shape[1:]:
        n *= s
    return v.reshape(v.shape[0], n)


def _squeeze_out(out):
    if isinstance(out, Tensor):
        return out.squeeze(1) if out.dim() > 1 else out
    if isinstance(out, tuple):
        return rebuilt(out, [_squeeze_out(o) for o in out])
    return out


def two_dims(level, call, args, kwargs):
    """transpose(dim0, dim1), swapaxes."""
    x = args[0]
    n = logical_rank(x, level)
    if n == 0:  # a 0-dim example takes dims 0 and -1 only, and stays itself
        for d in [*args[1:3], *(kwargs[k] for k in ("dim0", "dim1") if k in kwargs)]:
            _wrap_dim(d, 0)
        return wrap(call(x._value, 0, 0), level)
    args = list(args)
    args[0] = x._value
    for i in (1, 2):
        if len(args) > i:
            args[i] = _shift(args[i], n)
    for k in ("dim0", "dim1"):
        if k in kwargs:
            kwargs = {**kwargs, k: _shift(kwargs[k], n)}
    return wrap(call(*args, **kwargs), level)


def max_min(level, call, args, kwargs):
    """``max(x)`` (every element), ``max(x, dim)`` (values and indices) or ``max(x, other)``."""
    other = _get(list(args), kwargs, 1, "other")
    if isinstance(other, Tensor):
        return elementwise(level, call, args, kwargs)
    if _get(list(args), kwargs, 1, "dim") is None:
        from .dispatch import dispatched
        amax = dispatched("amax" if call.__name__.strip("_") == "max" else "amin")
        v = args[0]._value
        return wrap(amax(_flat(v) if v.dim() > 1 else v.unsqueeze(1), 1), level)
    return dim_op()(level, call, args, kwargs)


def permute(level, call, args, kwargs):
    x = args[0]
    dims = args[1] if len(args) == 2 and isinstance(args[1], (tuple, list)) else args[1:]
    dims = kwargs.get("dims", dims)
    n = logical_rank(x, level)
    return wrap(call(x._value, (0, *_shift(tuple(dims), n))), level)


def flip(level, call, args, kwargs):
    x = args[0]
    dims = args[1] if len(args) == 2 and isinstance(args[1], (tuple, list)) else args[1:]
    dims = kwargs.get("dims", dims)
    return wrap(call(x._value, _shift(tuple(dims), logical_rank(x, level))), level)


def squeeze(level, call, args, kwargs):
    x = args[0]
    d = _get(list(args), kwargs, 1, "dim")
    n = logical_rank(x, level)
    if d is None:
        # nothing to squeeze still makes a view, as PyTorch's rule: the result is not the input
        dims = tuple(i + 1 for i, s in enumerate(x.shape) if s == 1)
        return wrap(call(x._value, dims), level)
    if n == 0:
        # PyTorch's squeeze_dims_batch_rule for a 0-dim example: dim 0 only (not -1), an alias
        dims = [d] if isinstance(d, int) else list(d)
        if dims and dims != [0]:
            raise RuntimeError(f"Dimension is out of range (expected to be in range of [-1, 0], but got {dims}")
        return wrap(x._value[...], level)
    return wrap(call(x._value, _shift(d, n)), level)


def inplace_view(level, call, args, kwargs):
    """unsqueeze_, squeeze_, t_, transpose_: the physical value changes its shape in place (the
    batch dim stays in front), as functorch's in-place view rules."""
    x, rest, name = args[0], list(args[1:]), call.__name__
    n, v = logical_rank(x, level), x._value
    if name == "unsqueeze_":
        v.unsqueeze_(_wrap_dim(_get(rest, kwargs, 0, "dim"), n + 1) + 1)
    elif name == "squeeze_":
        d = _get(rest, kwargs, 0, "dim")
        if d is None:
            v.squeeze_(tuple(i + 1 for i, s in enumerate(x.shape) if s == 1))
        elif n == 0:
            x.squeeze(d)  # the out-of-place rule's check; a 0-dim example stays as it is
        else:
            v.squeeze_(_shift(d, n))
    elif name == "t_":
        if n > 2:
            call(v[0])  # PyTorch's message for a tensor of more than 2 dims, from the logical shape
        if n == 2:
            v.transpose_(1, 2)
    else:
        d0, d1 = _get(rest, kwargs, 0, "dim0"), _get(rest, kwargs, 1, "dim1")
        if n == 0:
            _wrap_dim(d0, 0), _wrap_dim(d1, 0)
        else:
            v.transpose_(_shift(d0, n), _shift(d1, n))
    return x


def flatten(level, call, args, kwargs):
    x = args[0]
    n = logical_rank(x, level)
    start, end = _get(list(args), kwargs, 1, "start_dim", 0), _get(list(args), kwargs, 2, "end_dim", -1)
    if n == 0:
        return wrap(x._value.unsqueeze(1), level)
    return wrap(call(x._value, _shift(start, n), _shift(end, n)), level)


def t(level, call, args, kwargs):
    x = args[0]
    n = logical_rank(x, level)
    if n > 2:
        call(x)  # PyTorch's message for a tensor of more than 2 dims, from the logical shape
    return wrap(x._value.transpose(1, 2) if n == 2 else x._value, level)


# ---------------------------------------------------------------------------- shapes
def _shape_args(args, kwargs, key="shape"):
    if key in kwargs:
        shape = kwargs[key]
    elif len(args) == 1 and isinstance(args[0], (tuple, list)):
        shape = args[0]
    else:
        shape = args
    return tuple(int(s) for s in shape)


def view_like(level, call, args, kwargs):
    """view/reshape: the batch size in front of the new shape."""
    x = args[0]
    shape = _shape_args(args[1:], kwargs)
    return wrap(call(x._value, (x._value.shape[0], *shape)), level)


def expand(level, call, args, kwargs):
    x = args[0]
    sizes = _shape_args(args[1:], kwargs, "size")
    v = _pad(x._value, len(sizes) - logical_rank(x, level))
    return wrap(call(v, (v.shape[0], *sizes)), level)


def as_other(method):
    """view_as/reshape_as/expand_as: the other tensor's logical shape."""
    def rule(level, call, args, kwargs):
        x, other = args[0], args[1]
        if not is_batched_at(x, level):
            x = BatchedTensor(_expanded(x, level), level)
        return getattr(x, method)(tuple(other.shape))
    return rule


# ---------------------------------------------------------------------------- the rest, one example at a time
def fallback(level, call, args, kwargs):
    """Runs the op once per example and stacks the results, with PyTorch's warning."""
    name = getattr(call, "__name__", "op").strip("_")
    warnings.warn(FALLBACK_WARNING.format(name=name), UserWarning, stacklevel=4)
    B = batch_size(level)

    def pick(a, b):
        if is_batched_at(a, level):
            return a._value[b]
        if isinstance(a, (list, tuple)) and any(is_batched_at(x, level) for x in a):
            return type(a)(pick(x, b) for x in a)
        return a

    outs = [call(*[pick(a, b) for a in args], **{k: pick(v, b) for k, v in kwargs.items()}) for b in range(B)]
    from .dispatch import dispatched
    stack = dispatched("stack")

    def join(items):
        first = items[0]
        if isinstance(first, Tensor):
            return BatchedTensor(stack(list(items)), level)
        if isinstance(first, tuple):
            return rebuilt(first, [join([o[i] for o in items]) for i in range(len(first))])
        if isinstance(first, list):
            return [join([o[i] for o in items]) for i in range(len(first))]
        return first
    return join(outs)
