"""Random tensors: ``rand``, ``randn``, ``randint``, ``randperm``, ``normal``, ``bernoulli``, ``multinomial``.

Each builds what PyTorch builds (an empty tensor, then the in-place sampler), so the same calls
consume the same draws in the same order as ``torch``.
"""
import numbers

import numpy as np

from .. import dtypes
from .._tensor import Size, Tensor, _make
from ..devices import as_device
from . import samplers as S
from ..saved_tensor import bump_version

D = S.D


# ---------------------------------------------------------------------------- factories
def _size(args, size, name):
    if size is not None:
        if args:
            raise TypeError(f"{name}() received an invalid combination of arguments - got multiple values for "
                            "argument 'size'")
        args = (size,)
    varargs = not (len(args) == 1 and isinstance(args[0], (tuple, list, Size)))
    if not varargs:
        args = args[0]
    elif len(args) == 1 and not isinstance(args[0], (numbers.Integral, Tensor)):
        raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not "
                        f"{type(args[0]).__name__}")
    for i, s in enumerate(args):
        if isinstance(s, bool) or not isinstance(s, (numbers.Integral, Tensor)):
            # PyTorch's argument parser words this three ways, by where the bad element is.
            kind = type(s).__name__
            if i == 0 and varargs:
                raise TypeError(f"{name}() received an invalid combination of arguments - got "
                                f"({', '.join(type(a).__name__ for a in args)}), but expected one of:")
            if i == 0:
                raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, but found element "
                                f"of type {kind} at pos 0")
            raise TypeError(f"{name}(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                            f'"type must be tuple of ints,but got {kind}"')
    args = tuple(int(s) for s in args)
    if any(s < 0 for s in args):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(args)}: {list(args)}")
    return args


def _empty(shape, dtype, default=None):
    return _make(np.empty(shape, dtypes.to_numpy_dtype(dtype or default or dtypes.get_default_dtype())))


def _finish(t, requires_grad, out=None):
    if out is not None:  # written in place when the shape fits, else resized, as resize_output does
        if out._data.shape == t._data.shape:
            out._data[...] = t._data
            bump_version(out)
        else:
            out._data = t._data.astype(out._data.dtype)
        return out
    t._version_counter[0] = 0  # a factory's fresh tensor is at version 0, though it was filled in place
    if requires_grad:
        if t._data.dtype.kind not in "fc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
        from .. import grad_mode
        if grad_mode.transform_depth[0]:
            from ..func._levels import own_new_leaf
            own_new_leaf(t)  # made inside a torch.func transform: that transform's leaf
    return t


def rand(*args, size=None, generator=None, out=None, dtype=None, layout=None, device=None,
         requires_grad=False, pin_memory=False):
    """A tensor of numbers drawn uniformly from ``[0, 1)``.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> torch.rand(3)
        tensor([0.4963, 0.7682, 0.0885])
    """
    as_device(device)
    t = _empty(_size(args, size, "rand"), dtype)
    return _finish(S.uniform_(t, generator=generator), requires_grad, out)


def randn(*args, size=None, generator=None, out=None, dtype=None, layout=None, device=None,
          requires_grad=False, pin_memory=False):
    """A tensor of samples of the standard normal distribution.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> torch.randn(3)
        tensor([ 1.5410, -0.2934, -2.1788])
    """
    as_device(device)
    t = _empty(_size(args, size, "randn"), dtype)
    return _finish(S.normal_(t, generator=generator), requires_grad, out)


def randint(*args, size=None, generator=None, out=None, dtype=None, layout=None, device=None,
            requires_grad=False, pin_memory=False, low=None, high=None):
    """Integers drawn uniformly from ``[low, high)``: ``randint(high, size)`` or ``randint(low, high, size)``.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> torch.randint(10, (4,))
        tensor([4, 9, 3, 0])
    """
    given = [type(a).__name__ for a in args]
    args = list(args)
    if size is None and args and isinstance(args[-1], (tuple, list, Size)):
        size = args.pop()
    if high is None and args:
        high = args.pop()
    if low is None:
        low = args.pop() if args else 0
    if size is None or high is None or args or not isinstance(size, (tuple, list, Size)):
        raise TypeError("randint() received an invalid combination of arguments - got "
                        f"({', '.join(given)}), "
                        "but expected one of:\n * (int high, tuple of ints size, *, torch.Generator generator, "
                        "Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
                        "torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n"
                        " * (int low, int high, tuple of ints size, *, torch.Generator generator, "
                        "Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
                        "torch.device device = None, bool pin_memory = False, bool requires_grad = False)\n")
    as_device(device)
    t = _empty(_size((), size, "randint"), dtype, dtypes.int64)
    return _finish(S.random_(t, int(low), int(high), generator=generator), requires_grad, out)


def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    """A random permutation of ``0 .. n-1`` (PyTorch's Fisher-Yates, so the same one for the same seed).

    Example::

        >>> _ = torch.manual_seed(0)
        >>> torch.randperm(4)
        tensor([0, 1, 3, 2])
    """
    as_device(device)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    perm = D.randperm(S._gen(generator), int(n))
    t = _make(perm.astype(dtypes.to_numpy_dtype(dtype or dtypes.int64), copy=False))
    return _finish(t, requires_grad, out)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           pin_memory=False, requires_grad=False):
    """Samples of ``N(mean, std**2)``; ``mean`` and ``std`` may be floats (then ``size`` is needed) or tensors.

    Example::

        >>> _ = torch.manual_seed(0)
        >>> torch.normal(2.0, 3.0, size=(2,))
        tensor([6.6230, 1.1197])
    """
    as_device(device)
    mean_t, std_t = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not mean_t and not std_t:
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments - got "
                            f"({type(mean).__name__}, {type(std).__name__}), but expected one of:")
        t = _empty(_size((), size, "normal"), dtype)
        return _finish(S.normal_(t, mean, std, generator=generator), requires_grad, out)
    if std_t and std._data.size and std._data.min() < 0:
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if mean_t and not std_t:
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {S._num(std)}")
        t = _make(np.empty(mean._data.shape, mean._data.dtype))
        S.normal_(t, 0.0, std, generator=generator)
        t._data += mean._data
    elif std_t and not mean_t:
        t = _make(np.empty(std._data.shape, std._data.dtype))
        S.normal_(t, generator=generator)
        t._data *= std._data
        t._data += np.asarray(mean, t._data.dtype)
    else:
        shape = np.broadcast_shapes(mean._data.shape, std._data.shape)
        t = _make(np.empty(shape, mean._data.dtype))
        S.normal_(t, generator=generator)
        t._data *= std._data
        t._data += mean._data
    return _finish(t, False, out)


def bernoulli(input, p=None, *, generator=None, out=None):
    """0/1 samples with the probabilities in ``input`` (or the float ``p``), in ``input``'s dtype."""
    t = _make(np.empty(input._data.shape, input._data.dtype))
    return _finish(S.bernoulli_(t, input if p is None else p, generator=generator), False, out)


def _like(fn, name):
    def like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None,
             generator=None):
        return fn(input._data.shape, dtype=dtype or input.dtype, device=device, requires_grad=requires_grad,
                  generator=generator)
    like.__name__ = like.__qualname__ = name
    like.__doc__ = f"``{fn.__name__}`` with the shape (and by default the dtype) of ``input``."
    return like


rand_like = _like(rand, "rand_like")
randn_like = _like(randn, "randn_like")


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False,
                 memory_format=None, generator=None):
    """``randint`` with the shape (and by default the dtype) of ``input``."""
    if high is None:
        low, high = 0, low
    return randint(low, high, input._data.shape, dtype=dtype or input.dtype, device=device,
                   requires_grad=requires_grad, generator=generator)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """Indices sampled from the rows of ``input`` (non-negative weights), as PyTorch samples them.

    Without replacement (or for one sample) this is PyTorch's exponential trick,
    ``argmax``/``topk`` of ``input / Exp(1)``; with replacement, a binary search of the normalised
    cumulative sums for one double uniform per sample.
    """
    probs = input._data
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and num_samples > probs.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    gen = S._gen(generator)
    if not replacement or num_samples == 1:
        if not (probs.max() < np.inf and probs.min() >= 0):
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if (probs.sum(-1) == 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        q = (probs / D.exponential(gen, probs.size, 1.0).astype(probs.dtype).reshape(probs.shape))
        if num_samples == 1:
            result = np.argmax(q, axis=-1)[..., None]
        else:
            result = np.argsort(-q, axis=-1, kind="stable")[..., :num_samples]
    else:
        rows = probs.reshape(-1, probs.shape[-1])
        result = np.empty((rows.shape[0], num_samples), np.int64)
        for i, row in enumerate(rows):
            if (row < 0).any():
                raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
            cum = np.cumsum(row)
            if not cum[-1] > 0:
                raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
            cum = cum / cum[-1]
            cum[-1] = 1
            result[i] = np.searchsorted(cum.astype(np.float64), D.unit_float64(gen, num_samples), side="left")
        result = result.reshape(probs.shape[:-1] + (num_samples,))
    return _finish(_make(result.astype(np.int64, copy=False)), False, out)
