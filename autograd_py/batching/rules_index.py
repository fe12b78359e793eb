"""Batching rules for joining and indexing: the batch dim stays in front of every index, and an
index tensor that is batched itself gets a batch ``arange`` beside it."""
import numpy as np

from .._tensor import Tensor
from .batched import VmapRefusal, batch_size, is_batched_at, physical, unbatched_write, wrap
from .rules import _aligned, _expanded, _get, _pad, _shape_args, _shift, dim_op, fallback, logical_rank


def cat_stack(offset):
    def rule(level, call, args, kwargs):
        tensors = list(args[0] if args else kwargs["tensors"])
        d = _get(list(args), kwargs, 1, "dim", 0)
        first = next(x for x in tensors if isinstance(x, Tensor))
        n = logical_rank(first, level)
        phys = [_expanded(x, level) for x in tensors]
        return wrap(call(phys, _shift(d, n + offset)), level)
    return rule


def _key_tuple(key):
    return key if isinstance(key, tuple) else (key,)


def getitem(level, call, args, kwargs):
    x, key = args[0], _key_tuple(args[1])
    batched_index = [k for k in key if is_batched_at(k, level)]
    if not is_batched_at(x, level) and not batched_index:
        return call(x, args[1])
    v = _expanded(x, level)
    if not batched_index:
        return wrap(call(v, (slice(None), *[physical(k, level) for k in key])), level)
    masks = [k for k in key if is_batched_at(k, level) and k.dtype.np == np.bool_]
    if masks:
        return _mask_index(level, call, x, key, masks)
    tensors = [i for i, k in enumerate(key) if isinstance(k, Tensor) and k.dtype.is_floating_point is False]
    if tensors != list(range(len(tensors))) or any(isinstance(k, Tensor) and k.dtype.np == np.bool_ for k in key):
        return fallback(level, call, args, kwargs)  # advanced indices apart from each other: one example at a time
    rank = max(logical_rank(key[i], level) for i in tensors)
    from .._tensor import _make
    B = batch_size(level)
    rows = _make(np.arange(B).reshape((B,) + (1,) * rank))
    new_key = (rows, *[_aligned(k, level, rank) if i in tensors else k for i, k in enumerate(key)])
    return wrap(call(v, new_key), level)


def _mask_index(level, call, x, key, masks):
    """A batched boolean mask: each example could select a different number of elements, which
    PyTorch refuses, even when they happen to agree. jacfwd, whose primals functorch leaves
    unbatched, retries one direction at a time (a refusal)."""
    raise VmapRefusal("vmap: We do not support batching operators that can support dynamic shape. "
                      "Attempting to batch over indexing with a boolean mask.")


def setitem(level, call, args, kwargs):
    x, key, value = args
    if not is_batched_at(x, level):  # a batched value or index cannot write into one unbatched tensor
        indexed = any(is_batched_at(k, level) for k in _key_tuple(key))
        raise unbatched_write("index_put_" if indexed else "inplace arithmetic")
    key = _key_tuple(key)
    if any(is_batched_at(k, level) for k in key):
        return fallback(level, call, args, kwargs)
    if is_batched_at(value, level):
        region = x[key]
        value = _pad(value._value, region.dim() - logical_rank(value, level))
    return call(x._value, (slice(None), *key), value)


def gather(level, call, args, kwargs):
    x, d, index = args[0], _get(list(args), kwargs, 1, "dim"), _get(list(args), kwargs, 2, "index")
    n = logical_rank(x, level)
    if n == 0 and logical_rank(index, level) == 0 and d in (0, -1):
        # 0-dim examples: gather along a dim of one, as PyTorch lets a 0-dim tensor take dim 0 or -1
        out = call(_expanded(x, level).unsqueeze(-1), 1, _expanded(index, level).unsqueeze(-1))
        return wrap(out.squeeze(-1), level)
    return wrap(call(_expanded(x, level), _shift(d, n), _expanded(index, level)), level)


def index_select(level, call, args, kwargs):
    x, d, index = args[0], _get(list(args), kwargs, 1, "dim"), _get(list(args), kwargs, 2, "index")
    if is_batched_at(index, level) or not is_batched_at(x, level):
        return fallback(level, call, args, kwargs)
    return wrap(call(x._value, _shift(d, logical_rank(x, level)), index), level)


def repeat(level, call, args, kwargs):
    x = args[0]
    reps = _shape_args(args[1:], kwargs, "repeats")
    n = logical_rank(x, level)
    if len(reps) < n:
        return call(x._value[0], *args[1:], **kwargs)  # PyTorch's own message, from one example
    v = _expanded(x, level)
    return wrap(call(_pad(v, len(reps) - n), (1, *reps)), level)


def msort(level, call, args, kwargs):
    return args[0].sort(0).values


def index_add(level, call, args, kwargs):
    x, d, index, source = args[0], args[1], args[2], args[3] if len(args) > 3 else kwargs["source"]
    if is_batched_at(index, level):
        return fallback(level, call, args, kwargs)
    extra = {k: v for k, v in kwargs.items() if k != "source"}
    return wrap(call(_expanded(x, level), _shift(d, logical_rank(x, level)), index, _expanded(source, level), **extra),
                level)


def select_narrow(level, call, args, kwargs):
    """select(dim, index) and narrow(dim, start, length): only the dim moves."""
    return dim_op(pos=1, name="dim", none="keep")(level, call, args, kwargs)


def masked_select(level, call, args, kwargs):
    """PyTorch's rule: an unbatched mask selects alike in every example, so the result is the
    physical selection viewed as one row per example; a batched mask would give rows of
    different lengths and is refused."""
    x, mask = args[0], _get(list(args), kwargs, 1, "mask")
    if is_batched_at(mask, level):
        raise RuntimeError("vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot "
                           "support this because for each batch this would return a differently shaped Tensor. "
                           "Please file an issue at https://github.com/pytorch/pytorch/issues if you need this "
                           "feature.")
    if not is_batched_at(x, level):
        return call(x, mask)
    v, rank, B = x._value, logical_rank(x, level), batch_size(level)
    if mask.dim() > rank:  # the examples' dims pad on the left, as broadcasting lines them up
        v = v.reshape((B,) + (1,) * (mask.dim() - rank) + tuple(v.shape[1:]))
    return wrap(call(v, mask).view(B, -1), level)
