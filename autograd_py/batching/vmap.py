"""``torch.vmap``: a function of one example, run once on a whole batch.

Example::

    >>> x = torch.randn(5, 3)
    >>> torch.vmap(torch.dot)(x, x).shape        # five dot products, one batched op
    torch.Size([5])
    >>> torch.func.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))(w, xs, ys)   # per-sample grads
"""
import functools
import itertools

from .._tensor import Tensor
from . import dispatch
from .batched import BatchedTensor, levels, transforms

_level_ids = itertools.count(1)


class _Pytree:
    """``func._pytree``, imported at its first use (``func`` imports this package): a function-level
    import costs a microsecond or two, and every vmap call flattens its inputs and outputs."""

    def __getattr__(self, name):
        from ..func import _pytree as module
        globals()["_pytree"] = module
        return getattr(module, name)


_pytree = _Pytree()
_RANDOMNESS = ("error", "different", "same")


def _func_name(func):
    name = getattr(func, "__name__", None)  # repr only when there is no name: it costs, on every call
    return repr(func) if name is None else name


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """Vectorizes ``func`` over a batch dim of its inputs.

    Args:
        func (callable): takes tensors (or pytrees of them) for one example.
        in_dims (int, None or pytree): the batch dim of each input; None: not batched.
            Defaults to 0.
        out_dims (int, None or pytree): where the batch dim goes in each output. Defaults to 0.
        randomness (str): ``"error"`` (random ops raise), ``"different"`` (a draw per example)
            or ``"same"`` (one draw for the whole batch). Defaults to ``"error"``.
        chunk_size (int, optional): run the batch in chunks of this size (less memory).

    Returns:
        callable: the batched function.
    """
    if randomness not in _RANDOMNESS:
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def batched(*args, **kwargs):
        return _vmap_call(func, in_dims, out_dims, randomness, chunk_size, args, kwargs)
    return batched


def _flat_in_dims(func, in_dims, args):
    leaves, spec = _pytree.tree_flatten(args)
    name = _func_name(func)
    if isinstance(in_dims, int) or in_dims is None:
        return leaves, spec, [in_dims] * len(leaves)
    if not isinstance(in_dims, tuple):
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a (potentially "
                         f"nested) tuple matching the structure of inputs, got: {type(in_dims)}.")
    if len(in_dims) != len(args):
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the structure "
                         f"of `inputs`. in_dims has structure {_pytree.tree_flatten(in_dims)[1]!r} but inputs "
                         f"has structure {spec!r}.")
    dims = []
    for dim, arg in zip(in_dims, args):
        arg_leaves, arg_spec = _pytree.tree_flatten(arg)
        if isinstance(dim, int) or dim is None:
            dims.extend([dim] * len(arg_leaves))
        else:
            dim_leaves, dim_spec = _pytree.tree_flatten(dim)
            if len(dim_leaves) != len(arg_leaves):
                raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the "
                                 f"structure of `inputs`. in_dims has structure {_pytree.tree_flatten(in_dims)[1]!r}"
                                 f" but inputs has structure {spec!r}.")
            dims.extend(dim_leaves)
    return leaves, spec, dims


def _batch_size(func, in_dims, leaves, dims):
    name = _func_name(func)
    sizes = []
    for leaf, dim in zip(leaves, dims):
        if dim is None:
            continue
        if not isinstance(leaf, Tensor):
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={dim} for an input but the "
                             f"input is of type {type(leaf)}. We cannot vmap over non-Tensor arguments, please use None "
                             "as the respective in_dim")
        n = leaf.dim()
        if not -n <= dim < n:
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={dim} for some input, but that "
                             f"input is a Tensor of dimensionality {n} so expected in_dim to satisfy -{n} <= in_dim < {n}.")
        sizes.append(leaf.shape[dim])
    if not sizes:
        raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): at least one input must be batched "
                         "(in_dims must not be all None)")
    if any(s != sizes[0] for s in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    return sizes[0]


def _vmap_call(func, in_dims, out_dims, randomness, chunk_size, args, kwargs):
    if not args:
        raise ValueError(f"vmap({_func_name(func)})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you "
                         "are trying to vmap over a function with no inputs. The latter is unsupported.")
    leaves, spec, dims = _flat_in_dims(func, in_dims, args)
    size = _batch_size(func, in_dims, leaves, dims)
    if chunk_size is not None:  # PyTorch chunks (and joins with cat) whenever a chunk_size is given
        return _chunked(func, in_dims, out_dims, randomness, chunk_size, leaves, spec, dims, size, kwargs)
    level = next(_level_ids)
    if not levels:
        dispatch.install()
    levels.append((level, size, randomness))
    transforms.append("vmap")
    try:
        batched = []
        for leaf, dim in zip(leaves, dims):
            if dim is None:
                batched.append(leaf)
                continue
            dim %= leaf.dim()
            b = BatchedTensor(leaf.movedim(dim, 0) if dim else leaf, level)
            b._depth = len(levels)
            b._source = (leaf, dim)  # functorch batches the input itself, its batch dim where it is
            batched.append(b)
        out = dispatch.call_user(func, *_pytree.tree_unflatten(batched, spec), **kwargs)
        return _unwrap_outputs(func, out, out_dims, level, size)
    finally:
        levels.pop()
        transforms.pop()  # the wrappers stay: the next one called outside a vmap swaps the originals back


def _chunked(func, in_dims, out_dims, randomness, chunk_size, leaves, spec, dims, size, kwargs):
    """The batch in chunks, each one vmap call; the outputs joined along their out dims."""
    import autograd_py
    results = []
    for start in range(0, size, chunk_size):
        part = [leaf.narrow(dim, start, min(chunk_size, size - start)) if dim is not None else leaf
                for leaf, dim in zip(leaves, dims)]
        part = _pytree.tree_unflatten(part, spec)
        results.append(_vmap_call(func, in_dims, out_dims, randomness, None, part, kwargs))
    flat = [_pytree.tree_flatten(r) for r in results]
    spec_out = flat[0][1]
    outs = []
    out_leaf_dims = _out_dims_list(out_dims, spec_out, len(flat[0][0]))
    for i in range(len(flat[0][0])):
        d = out_leaf_dims[i]
        if d is None:  # PyTorch joins every chunk's outputs with cat, which refuses a None dim
            raise TypeError("cat(): argument 'dim' must be int, not NoneType")
        outs.append(autograd_py.cat([f[0][i] for f in flat], d))
    return _pytree.tree_unflatten(outs, spec_out)


def _out_dims_list(out_dims, spec, n):
    if isinstance(out_dims, int) or out_dims is None:
        return [out_dims] * n
    dims = []
    for d in out_dims:
        dims.extend(_pytree.tree_flatten(d)[0] if not isinstance(d, int) and d is not None else [d])
    return dims if len(dims) == n else [out_dims[0]] * n


def _remove_batch_dim(x, dim):
    """The physical value of a batched output with its batch dim at ``dim``. An input returned as
    it is comes back as the caller's own tensor when the dims agree (functorch's movedim returns
    its argument when source and destination are the same)."""
    value = x._value
    n = value.dim()
    if -n <= dim < n:
        dim %= n
    source = x.__dict__.get("_source")
    if source is not None:
        original, in_dim = source
        if value.shape[0] == original.shape[in_dim] and n == original.dim():
            return original if dim == in_dim else original.movedim(in_dim, dim)
    return value.movedim(0, dim) if dim else value


def _unwrap_outputs(func, out, out_dims, level, size):
    leaves, spec = _pytree.tree_flatten(out)
    dims = _out_dims_list(out_dims, spec, len(leaves))
    name = _func_name(func)
    result = []
    for leaf, dim in zip(leaves, dims):
        if not isinstance(leaf, Tensor):
            if dim is None:
                result.append(leaf)
                continue
            raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(leaf)}. Did you "
                             "mean to set out_dims= to None for output?")
        batched = isinstance(leaf, BatchedTensor) and leaf._level == level
        if dim is None:
            if batched:
                raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None")
            result.append(leaf)
            continue
        if batched:
            result.append(_remove_batch_dim(leaf, dim))
        elif dim >= 0:
            # PyTorch's _remove_batch_dim expands to the sizes with the batch inserted at out_dim:
            # for out_dim > 0 that is an expand, not a moved batch dim (and may fail to expand).
            shape = list(leaf.shape)
            result.append(leaf.expand(*shape[:dim], size, *shape[dim:]))
        else:
            result.append(leaf.unsqueeze(0).expand(size, *leaf.shape).movedim(0, dim))
    return _pytree.tree_unflatten(result, spec)
