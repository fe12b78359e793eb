"""``arange``, ``linspace`` and ``logspace`` with PyTorch's exact values.

PyTorch's CPU kernels (``aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp``) fix the last bit of
every element: ``arange`` works in double precision for floats, in blocks of one 32-byte vector
(x86 AVX2) that each start from a rounded base; ``linspace`` steps from ``start`` for the first
half and back from ``end`` for the second, in the output's own type. Both are compiled with fused
multiply-adds, which :func:`autograd_py._fp.fma64` reproduces.
"""
import math
import numbers

import numpy as np

from . import dtypes
from ._fp import fma64
from .devices import as_device
from .signatures import invalid_combination

_VECTOR_BYTES = 32  # one AVX2 register: 8 float32 or 4 float64 lanes
_MISSING = object()


def _number(value, name, position, fn):
    from ._tensor import Tensor

    if isinstance(value, Tensor) and value._data.ndim == 0:
        return value.item()
    if isinstance(value, numbers.Number) and not isinstance(value, complex):
        return value
    raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be Number, not {type(value).__name__}")


def _finish(data, requires_grad, device):
    from .creation import _finish as finish

    as_device(device)
    return finish(data, requires_grad)


def arange(*args, start=_MISSING, end=_MISSING, step=_MISSING, out=None, dtype=None, layout=None, device=None,
           pin_memory=False, requires_grad=False):
    """Values from ``start`` to ``end`` (exclusive) by ``step``: ``arange(end)`` or ``arange(start, end, step=1)``.

    Integer arguments give int64, any float gives the default float dtype.

    Args:
        start (Number, optional): the first value. Defaults to ``0``.
        end (Number): the bound, not included.
        step (Number, optional): the gap between values. Defaults to ``1``.
        dtype (torch.dtype, optional): the result's dtype. Defaults to the inferred one.
        device (torch.device, optional): must be the CPU.
        requires_grad (bool, optional): record operations on the result. Defaults to ``False``.

    Example::

        >>> torch.arange(0, 1, 0.25)
        tensor([0.0000, 0.2500, 0.5000, 0.7500])
    """
    given = {"start": start, "end": end, "step": step}
    names = ("end",) if len(args) == 1 and end is _MISSING else ("start", "end", "step")
    if len(args) > 3:
        raise TypeError(f"arange() takes from 1 to 3 positional arguments but {len(args)} were given")
    for name, value in zip(names, args):
        if given[name] is not _MISSING:
            raise TypeError(f"arange() got multiple values for argument '{name}'")
        given[name] = value
    if given["end"] is _MISSING:
        raise TypeError('arange() missing 1 required positional arguments: "end"')
    start = 0 if given["start"] is _MISSING else _number(given["start"], "start", 1, "arange")
    end = _number(given["end"], "end", 1 if len(args) < 2 else 2, "arange")
    step = 1 if given["step"] is _MISSING else _number(given["step"], "step", 3, "arange")
    if dtype is None:
        is_float = any(isinstance(v, float) for v in (start, end, step))
        dtype = dtypes.get_default_dtype() if is_float else dtypes.int64
    np_dtype = dtypes.to_numpy_dtype(dtype)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    return _finish(_arange_values(start, end, step, np_dtype), requires_grad, device)


def _arange_values(start, end, step, np_dtype):
    if np_dtype.kind in "iub":
        start, end, step = int(start), int(end), int(step)
        sign = 1 if step > 0 else -1
        n = abs(end - start + step - sign) // abs(step)  # C++ integer division, both signs agree
        return (start + step * np.arange(n, dtype=np.int64)).astype(np_dtype)
    n = max(0, int(math.ceil((float(end) - float(start)) / float(step))))
    start, step = float(start), float(step)
    idx = np.arange(n, dtype=np.float64)
    if np_dtype.itemsize not in (4, 8):  # half precision: PyTorch accumulates in float32
        return (start + step * idx).astype(np_dtype)
    lanes = _VECTOR_BYTES // np_dtype.itemsize
    vectorised = (n // (2 * lanes)) * 2 * lanes  # the rest is done one element at a time
    out = fma64(step, idx, start).astype(np_dtype)
    head = idx[:vectorised]
    lane = head % lanes
    base = fma64(step, head - lane, start).astype(np_dtype).astype(np.float64)
    out[:vectorised] = fma64(step, lane, base).astype(np_dtype)
    return out


def linspace(*args, out=None, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False,
             **kwargs):
    """``steps`` evenly spaced values from ``start`` to ``end``, both included.

    Args:
        start (Number): the first value.
        end (Number): the last value.
        steps (int): how many values.
        dtype (torch.dtype, optional): defaults to the default float dtype.
        device (torch.device, optional): must be the CPU.
        requires_grad (bool, optional): record operations on the result. Defaults to ``False``.

    Example::

        >>> torch.linspace(-1, 1, 5)
        tensor([-1.0000, -0.5000,  0.0000,  0.5000,  1.0000])
    """
    start, end, steps = _range_args("linspace", args, kwargs)
    np_dtype = dtypes.to_numpy_dtype(dtype if dtype is not None else dtypes.get_default_dtype())
    return _finish(_linspace_values(start, end, steps, np_dtype), requires_grad, device)


def _range_args(fn, args, kwargs):
    names = ("start", "end", "steps")
    values = dict(zip(names, args))
    extra = set(kwargs) - set(names) - {"base"}
    clash = set(values) & set(kwargs)
    values.update({k: v for k, v in kwargs.items() if k in names})
    steps = values.get("steps")
    if (len(args) > 3 or extra or clash or len(values) < 3 or not isinstance(steps, int) or isinstance(steps, bool)
            or not all(isinstance(values[k], numbers.Real) for k in ("start", "end"))):
        what = "Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, " \
               "bool pin_memory = False, bool requires_grad = False)"
        base = "double base = 10.0, *, " if fn == "logspace" else "*, "
        forms = [f"({a} start, {b} end, int steps, {base}{what}" for a, b in
                 (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"), ("Number", "Number"))]
        raise invalid_combination(fn, args, {k: v for k, v in kwargs.items() if k != "base"}, forms)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return values["start"], values["end"], steps


def _linspace_values(start, end, steps, np_dtype):
    if steps <= 1:
        return np.full(steps, start).astype(np_dtype) if np_dtype.kind == "f" else np.full(steps, int(start), np_dtype)
    idx = np.arange(steps, dtype=np.float64)
    back = steps - 1 - idx
    first = idx < steps // 2
    if np_dtype.kind in "iub":
        # Integer outputs step in double precision from the integer endpoints.
        lo, hi = float(int(start)), float(int(end))
        step = (hi - lo) / (steps - 1)
        values = np.where(first, fma64(step, idx, lo), fma64(-step, back, hi))
        return np.trunc(values).astype(np_dtype)
    lo, hi = np_dtype.type(start), np_dtype.type(end)
    step = (hi - lo) / np_dtype.type(steps - 1)  # in the output's precision, as PyTorch does
    values = np.where(first, fma64(float(step), idx, float(lo)), fma64(-float(step), back, float(hi)))
    return values.astype(np_dtype)


def logspace(*args, base=10.0, out=None, dtype=None, layout=None, device=None, pin_memory=False,
             requires_grad=False, **kwargs):
    """``steps`` values from ``base ** start`` to ``base ** end``, evenly spaced on a log scale.

    Args:
        start (Number): the first exponent.
        end (Number): the last exponent.
        steps (int): how many values.
        base (float, optional): the base. Defaults to ``10.0``.
        dtype (torch.dtype, optional): defaults to the default float dtype.

    Example::

        >>> torch.logspace(0, 2, 3)
        tensor([  1.,  10., 100.])
    """
    start, end, steps = _range_args("logspace", args, kwargs)
    np_dtype = dtypes.to_numpy_dtype(dtype if dtype is not None else dtypes.get_default_dtype())
    if steps <= 1:
        return _finish(np.full(steps, float(base) ** float(start)).astype(np_dtype), requires_grad, device)
    idx = np.arange(steps, dtype=np.float64)
    first = idx < steps // 2
    if np_dtype.kind in "iub":
        lo, hi = np.float64(int(start)), np.float64(int(end))
    else:
        lo, hi = np.float64(np_dtype.type(start)), np.float64(np_dtype.type(end))
    step = float(np_dtype.type(hi) - np_dtype.type(lo)) / (steps - 1) if np_dtype.kind == "f" else (hi - lo) / (steps - 1)
    # Unlike the range kernels, logspace is compiled without FMA: plain double arithmetic.
    exponent = np.where(first, lo + step * idx, hi - step * (steps - 1 - idx))
    # C's pow, element by element: NumPy's vectorised power may differ from it in the last bit.
    values = np.array([math.pow(float(base), e) for e in exponent.tolist()])
    return _finish(values.astype(np_dtype), requires_grad, device)
