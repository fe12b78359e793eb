"""PyTorch's CPU sampling kernels on NumPy: the same draws, transforms and roundings, value for value.

Each function returns ``n`` samples in the order PyTorch's serial kernel writes them
(``aten/src/ATen/native/cpu/DistributionTemplates.h`` and ``core/TransformationHelper.h``).
"""
import math

import numpy as np

from .. import _fp
from . import _avx_math

_MASK24, _MASK53 = np.uint64((1 << 24) - 1), np.uint64((1 << 53) - 1)
_TWO_PI = 2.0 * math.pi


def unit_float32(gen, n):
    """``uniform_real_distribution<float>(0, 1)``: 24 bits of one 32-bit draw, times 2**-24."""
    raw = gen.random(n)
    np.bitwise_and(raw, _MASK24, out=raw)
    out = raw.astype(np.float32)
    out *= np.float32(2.0 ** -24)
    return out


def unit_float64(gen, n):
    """``uniform_real_distribution<double>(0, 1)``: 53 bits of one 64-bit draw, times 2**-53."""
    return (gen.random64(n) & _MASK53).astype(np.float64) * 2.0 ** -53


def uniform(gen, n, dtype, low, high):
    """``uniform_``: ``x * (to - from) + from`` fused, in the dtype; a result equal to ``to`` becomes ``from``."""
    if dtype == np.float64:
        x = unit_float64(gen, n)
        out = x if (low, high) == (0.0, 1.0) else _fp.fma64(x, high - low, low)
    else:
        x = unit_float32(gen, n)
        lo, hi = np.float32(low), np.float32(high)
        out = x if (lo, hi) == (0, 1) else _fp.fma32(x, hi - lo, lo)
        low, high = lo, hi
    out[out == high] = low
    return out.astype(dtype, copy=False)


# ---------------------------------------------------------------------------- normal
def normal_pairs(gen, n, mean, std):
    """``normal_distribution<double>`` called ``n`` times: Box-Muller on two 64-bit uniforms per pair,
    the sine half cached on the generator for the next call."""
    out = np.empty(n, np.float64)
    start = 0
    if n and gen.next_double_normal is not None:
        out[0], gen.next_double_normal = gen.next_double_normal, None
        start = 1
    pairs = (n - start + 1) // 2
    u = unit_float64(gen, 2 * pairs)
    radius = np.sqrt(-2.0 * _fp.libm(math.log1p, -u[1::2]))
    theta = _TWO_PI * u[0::2]
    both = np.empty(2 * pairs)
    both[0::2] = radius * np.cos(theta)
    both[1::2] = radius * np.sin(theta)
    out[start:] = both[:n - start]
    if (n - start) % 2:
        gen.next_double_normal = float(both[-1])
    return out if (mean, std) == (0.0, 1.0) else _fp.fma64(out, std, mean)


_CHUNK = 1 << 16  # values per pass: the temporaries stay in cache instead of being page-faulted in
_CHECKED = 1 << 17  # up to this many values, rounding ties are looked for and redone exactly


def normal_fill(gen, n, dtype, mean, std):
    """``normal_fill`` for a contiguous tensor of ``n >= 16``: all uniforms first, Box-Muller in blocks
    of 16 (first 8 give ``1 - u`` for the radius, last 8 the angle), and the last 16 redone with fresh
    uniforms when ``n % 16 != 0``. The draws are made chunk by chunk, in the same order."""
    single = dtype == np.float32
    draw = unit_float32 if single else unit_float64
    whole = n - n % 16
    check = n <= _CHECKED
    out = np.empty(n, dtype)
    for start in range(0, whole, _CHUNK):
        stop = min(start + _CHUNK, whole)
        out[start:stop] = _box_muller_16(draw(gen, stop - start), single, mean, std, check)
    if n % 16:
        draw(gen, n - whole)  # drawn, then overwritten by the redone last block
        out[n - 16:] = _box_muller_16(draw(gen, 16), single, mean, std, check)
    return out


def _box_muller_16(data, single, mean, std, check):
    blocks = data.reshape(-1, 2, 8)
    if single:
        cos, sin, radius = _avx_cos_sin_radius(blocks, check)
        mean, std = np.float32(mean), np.float32(std)
        fused = (lambda v: v) if (mean, std) == (0, 1) else (lambda v: _fp.fma32(v, std, mean))
    else:
        radius = np.sqrt(-2.0 * _fp.libm(math.log, 1.0 - blocks[:, 0]))
        theta = _TWO_PI * blocks[:, 1]
        cos, sin = np.cos(theta), np.sin(theta)
        fused = (lambda v: v) if (mean, std) == (0.0, 1.0) else (lambda v: _fp.fma64(v, std, mean))
    out = np.empty_like(blocks)
    out[:, 0] = fused(radius * cos)
    out[:, 1] = fused(radius * sin)
    return out.reshape(-1)


def _avx_cos_sin_radius(blocks, check):
    u1 = (np.float32(1) - blocks[:, 0]).reshape(-1)
    theta = (np.float32(_TWO_PI) * blocks[:, 1]).reshape(-1)
    steps = _avx_math._Steps(u1.shape, check)
    values = _avx_math_pass(u1, theta, steps)
    if check and steps.ties.any():
        # A float64 sum exactly half-way between two float32 may round otherwise than one fma does:
        # redo those elements with exact single-rounding steps. (Skipped above _CHECKED values, for
        # speed: in 6e7 values it never changed a bit.)
        tied = np.flatnonzero(steps.ties)
        exact = _avx_math._Steps(tied.shape, check_ties=False)
        exact.fma = _exact_fma
        for full, redone in zip(values, _avx_math_pass(u1[tied], theta[tied], exact)):
            full[tied] = redone
    return tuple(v.reshape(blocks[:, 0].shape) for v in values)


def _avx_math_pass(u1, theta, steps):
    radius = np.sqrt(np.float32(-2) * _avx_math.log(u1, steps))
    sin, cos = _avx_math.sincos(theta, steps)
    return cos, sin, radius


def _exact_fma(a, b, c, out):
    out[...] = _fp.fma32(np.asarray(a, np.float64), b, c)
    return out


# ---------------------------------------------------------------------------- other continuous
def exponential(gen, n, lambd):
    """``-1 / lambda * log1p(-u)`` in double."""
    return (-1.0 / lambd) * _fp.libm(math.log1p, -unit_float64(gen, n))


def cauchy(gen, n, median, sigma):
    """``median + sigma * tan(pi * (u - 0.5))`` in double (fused)."""
    return _fp.fma64(sigma, _fp.libm(math.tan, math.pi * (unit_float64(gen, n) - 0.5)), median)


def log_normal(gen, n, mean, std):
    """``exp`` of ``normal_distribution<double>(mean, std)`` (sharing its cached sample)."""
    return _fp.libm(math.exp, normal_pairs(gen, n, mean, std))


def geometric(gen, n, p):
    """``ceil(log(u) / log1p(-p))`` in double."""
    return np.ceil(_fp.libm(math.log, unit_float64(gen, n)) / math.log1p(-p))


def bernoulli_scalar(gen, n, p):
    """``bernoulli_(p)`` off Intel's MKL path: a double uniform below ``p``."""
    return unit_float64(gen, n) < p


def bernoulli_tensor(gen, p):
    """``bernoulli_(p_tensor)``: double probabilities compare a double uniform, others a float one."""
    if p.dtype == np.float64:
        return unit_float64(gen, p.size) < p.reshape(-1)
    return unit_float32(gen, p.size) < p.reshape(-1).astype(np.float32)


# ---------------------------------------------------------------------------- integers
def from_to(gen, n, low, span):
    """``random_(from, to)``: ``from + draw % (to - from)`` with 64-bit draws from a span of ``2**28``
    (wrapping like the C++ unsigned arithmetic); ``span=None`` is the full int64 range."""
    if span is None:
        return gen.random64(n).view(np.int64)
    draws = gen.random64(n) if span >= 1 << 28 else gen.random(n)
    return ((draws % np.uint64(span)) + np.uint64(low & 0xFFFFFFFFFFFFFFFF)).view(np.int64)


_DEFAULT_SPAN = {np.dtype(np.float32): (1 << 24) + 1, np.dtype(np.float64): (1 << 53) + 1,
                 np.dtype(np.int64): 1 << 63, np.dtype(np.int32): 1 << 31, np.dtype(np.int16): 1 << 15,
                 np.dtype(np.int8): 1 << 7, np.dtype(np.uint8): 1 << 8, np.dtype(np.bool_): 2}


def random_default(gen, n, dtype):
    """``random_()``: ``[0, 2**mantissa]`` for floats, ``[0, max]`` for integers, one bit for bool."""
    dtype = np.dtype(dtype)
    draws = gen.random64(n) if dtype in (np.float64, np.int64) else gen.random(n)
    return (draws % np.uint64(_DEFAULT_SPAN[dtype])).astype(dtype)


def randperm(gen, n):
    """Fisher-Yates as ``randperm_cpu``: swap ``i`` with ``i + random() % (n - i)``."""
    perm = list(range(n))
    if n > 1:
        offsets = (gen.random(n - 1) % np.arange(n, 1, -1, dtype=np.uint64)).tolist()
        for i, z in enumerate(offsets):
            j = i + z
            perm[i], perm[j] = perm[j], perm[i]
    return np.array(perm, dtype=np.int64)
