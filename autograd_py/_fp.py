"""Exact float arithmetic PyTorch's CPU kernels rely on: fused multiply-add and libm calls.

Shared by the random samplers (``random/distributions.py``) and the range factories (``ranges.py``).

PyTorch's kernels are compiled with FMA contraction, so ``x * s + m`` is rounded once. NumPy has no
fma, so these emulate it: a float32 fma in float64 (the product of two float32 is exact there), and
a float64 fma with Dekker's error-free product. Transcendentals that must match the C library go
through :mod:`math` (NumPy's float64 ``log`` is its own SIMD code and differs in about 0.3% of cases).
"""
from math import isfinite as _isfinite

import numpy as np

_TIE_MASK = np.uint64((1 << 29) - 1)
_TIE = np.uint64(1 << 28)
_SPLIT = 134217729.0  # 2**27 + 1, Veltkamp's splitter for float64


def fma32(a, b, c):
    """``round_f32(a * b + c)`` for float32 arrays, rounded once like a hardware fma."""
    a, b, c = np.asarray(a, np.float64), np.asarray(b, np.float64), np.asarray(c, np.float64)
    p = a * b  # exact
    # (the operands broadcast here, not first: np.broadcast_arrays is Python, ~50 us a call in
    # Pyodide; asarray: three 0-d operands give a NumPy scalar)
    s = np.asarray(p + c)
    out = s.astype(np.float32)
    # Rounding s again to float32 can only go wrong when s sits exactly half-way between two float32.
    at_tie = half_way32(s)
    if at_tie.any():  # (rare: the indices only then)
        flat = out.reshape(-1)  # (a view: out is new and contiguous)
        _fix_ties(flat, s.reshape(-1), np.broadcast_to(p, s.shape).reshape(-1),
                  np.broadcast_to(c, s.shape).reshape(-1), np.flatnonzero(at_tie))
    return out


def half_way32(s):
    """Where the float64 values of ``s`` lie exactly half-way between two float32: only there does
    rounding them to float32 differ from rounding once the exact value they were rounded from."""
    return (s.view(np.uint64) & _TIE_MASK) == _TIE


def _fix_ties(out, s, p, c, idx):
    p, c, s = p[idx], c[idx], s[idx]
    bb = s - p
    err = (p - (s - bb)) + (c - bb)  # s + err == p + c exactly (TwoSum): err says which side to round to
    out[idx] = np.where(err > 0, _above(s), np.where(err < 0, _below(s), out[idx]))


def _above(s):
    r = s.astype(np.float32)
    return np.where(r.astype(np.float64) > s, r, np.nextafter(r, np.float32(np.inf)))


def _below(s):
    r = s.astype(np.float32)
    return np.where(r.astype(np.float64) < s, r, np.nextafter(r, np.float32(-np.inf)))


def _split(a):
    t = a * _SPLIT
    hi = t - (t - a)
    return hi, a - hi


def fma64(a, b, c):
    """``a * b + c`` for float64 arrays with (almost always) a single rounding, as ``std::fma``.

    The product's rounding error is recovered exactly (Dekker); only a result that lands exactly on
    a rounding tie after that can differ, with probability about 2**-50.
    """
    a, b, c = np.asarray(a, np.float64), np.asarray(b, np.float64), np.asarray(c, np.float64)
    if not (a.ndim or b.ndim or c.ndim):
        # an optimizer's step on a 0-dim parameter: the same steps on Python floats (IEEE doubles
        # rounded after each op, as NumPy's) at a tenth of the cost of NumPy's 0-dim arithmetic
        return np.float64(_fma_floats(float(a), float(b), float(c)))
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bb = s - p
    t = (p - (s - bb)) + (c - bb)
    with np.errstate(invalid="ignore"):
        out = s + (t + e)
    if out.ndim == 0:
        return out if np.isfinite(p) and np.isfinite(c) else p + c
    # The error terms of an infinite product or addend are nan: such a sum is just p + c.
    return np.where(np.isfinite(p) & np.isfinite(c), out, p + c)


def _fma_floats(a, b, c):
    """``fma64``'s steps, in its order, on Python floats."""
    p = a * b
    t = a * _SPLIT
    ah = t - (t - a)
    al = a - ah
    t = b * _SPLIT
    bh = t - (t - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bb = s - p
    t = (p - (s - bb)) + (c - bb)
    return s + (t + e) if _isfinite(p) and _isfinite(c) else p + c


def libm(fn, x):
    """``fn`` (a :mod:`math` function, i.e. the C library's) on every element of a float64 array."""
    return np.fromiter(map(fn, x.ravel().tolist()), np.float64, x.size).reshape(x.shape)



def in_float64(fn, data):
    """``fn(data)``; float32 data evaluated in float64 and rounded once (see :func:`via_float64`)."""
    return fn(data.astype(np.float64)).astype(np.float32) if data.dtype == np.float32 else fn(data)


def via_float64(fn):
    """``fn`` for float32 data as PyTorch's CPU kernels give it: evaluated in float64, rounded once.

    PyTorch's float32 transcendentals (SLEEF and MKL's VML on x86 builds) are all but correctly
    rounded; NumPy's float32 SIMD ones are not, and differ from them in 13-45% of values (tanh 32%,
    log 17%, sin 13%, cos 19%, log1p 12%). Rounding the float64 result once agrees in 92-99.9%
    (tanh 99.9%, log1p 99.3%, sin and cos 95%, log 92%). The returned function takes float32 data
    (arrays or NumPy scalars) and gives float32; the ops call it for that dtype only.
    """
    def rounded(x):
        return fn(x.astype(np.float64)).astype(np.float32)
    rounded.__name__ = fn.__name__
    return rounded


def fma(a, b, c):
    """``a * b + c`` rounded once in ``c``'s float dtype (float32 or float64), as an FMA kernel."""
    return fma32(a, b, c) if np.asarray(c).dtype == np.float32 else fma64(a, b, c)


def exp(x):
    """``exp`` as PyTorch's CPU kernel gives it: for float32 the float64 result rounded once.

    PyTorch's float32 exp (MKL's VML on x86 builds, glibc's ``expf`` for short tails) is all but
    correctly rounded; NumPy's SIMD float32 exp is not, and differs from it in about 39% of values
    (``exp(-1)`` gives 0.36787942 against 0.36787945). Rounding the float64 result agrees in 99%.
    """
    if x.dtype == np.float32:
        return np.exp(x.astype(np.float64)).astype(np.float32)
    return np.exp(x)


# SLEEF's expf_u10 constants: log2(e), and ln(2) split in a high part exact in float32 and the rest.
_F32 = np.float32
_LOG2E32 = _F32(1.4426950408889634)
_LN2_HI32, _LN2_LO32 = _F32(0.693145751953125), _F32(1.428606765330187e-06)
_EXP_POLY32 = tuple(_F32(c) for c in (1.98527617612853646278381e-4, 1.39304355252534151077271e-3,
                                       8.33336077630519866943359e-3, 4.16664853692054748535156e-2,
                                       0.166666671633720397949219, 0.5))


def vector_exp32(x):
    """float32 ``exp`` as PyTorch's vectorised kernels compute it (``Vectorized<float>::exp``).

    Where ATen writes an op with ``Vectorized`` arithmetic (sigmoid, softmax over the last dim and
    their backward kernels) its ``exp`` is SLEEF's ``expf_u10``, which is not correctly rounded:
    rounding the float64 result (:func:`exp`, which matches the ``exp`` op itself, MKL's) differs
    from it in about 9% of values, and sigmoid in 4%. This follows SLEEF's algorithm step by step,
    each multiply-add fused as on AVX512: ``q = rint(x * log2(e))``, ``s = x - q * ln(2)`` in two
    parts, a degree-5 polynomial in Horner form, ``1 + (s * s * u + s)``, then ``* 2**q`` in two
    exact halves; below -104 it gives 0 and above 100 inf.

    Args:
        x (ndarray): float32 data.

    Returns:
        ndarray: float32, ``exp(x)`` with SLEEF's roundings.
    """
    x = np.asarray(x, _F32)
    with np.errstate(invalid="ignore", over="ignore"):
        q = np.rint(np.clip(x, -110, 110) * _LOG2E32)  # (clip: q fits an int; those ends are set below)
        s = fma32(q, -_LN2_HI32, x)
        s = fma32(q, -_LN2_LO32, s)
        u = np.full(x.shape, _EXP_POLY32[0], _F32)
        for c in _EXP_POLY32[1:]:
            u = fma32(u, s, c)
        u = _F32(1) + fma32(s * s, u, s)
        k = np.nan_to_num(q).astype(np.int32)
        half = k >> 1
        u = u * np.ldexp(_F32(1), half) * np.ldexp(_F32(1), k - half)
    u = np.where(x < -104, _F32(0), u)
    return np.where(x > 100, _F32(np.inf), u).astype(_F32, copy=False)


_LOOP_STEP32 = 32  # float32 values per step of ATen's vectorized_loop: two AVX512 vectors


def vectorized_loop32(vector_fn, scalar_fn, *arrays):
    """An elementwise float32 kernel as ATen's ``cpu_kernel_vec`` runs it on contiguous data.

    Its loop takes two vectors (32 floats) a step with the ``Vectorized`` kernel and the values
    left over with the scalar one, so a kernel whose vector form rounds otherwise (SLEEF's exp in
    ``sigmoid``) gives the two kinds of last digits by position. Strided data, or operands laid
    out differently, run the scalar kernel throughout. (Past 32,768 values ATen splits the loop
    between its threads, each with a tail of its own: those few values are not reproduced.)

    Args:
        vector_fn (callable): the Vectorized kernel, on float32 arrays (one per operand).
        scalar_fn (callable): the scalar kernel, likewise.
        *arrays (ndarray): float32 operands of one shape.

    Returns:
        ndarray: float32, laid out as the operands.
    """
    x = arrays[0]
    c, f = x.flags.c_contiguous, x.flags.f_contiguous and not x.flags.c_contiguous
    if x.size < _LOOP_STEP32 or not (c or f) or any(
            a.shape != x.shape or not (a.flags.c_contiguous if c else a.flags.f_contiguous) for a in arrays[1:]):
        return scalar_fn(*arrays)
    flat = [a.ravel(order="F" if f else "C") for a in arrays]
    split = x.size - x.size % _LOOP_STEP32
    out = np.empty_like(flat[0])
    out[:split] = vector_fn(*(a[:split] for a in flat))
    out[split:] = scalar_fn(*(a[split:] for a in flat))
    return out.reshape(x.shape, order="F" if f else "C")


def _getexp32(v):
    """AVX512's ``getexp``: ``floor(log2 |v|)`` as a float; -inf at 0, inf at inf, NaN kept."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (np.frexp(v)[1] - 1).astype(_F32)
    out = np.where(v == 0, _F32(-np.inf), np.where(np.isinf(v), _F32(np.inf), out))
    return np.where(np.isnan(v), v, out)


def vector_log1p32(d):
    """float32 ``log1p`` as PyTorch's vectorised kernels compute it (``Vectorized<float>::log1p``).

    That is SLEEF's ``log1pf_u10`` (AVX512 build), which is not correctly rounded: the float64
    ``log1p`` rounded differs from it in about 1% of softplus's values. This follows its steps:
    ``1 + d = 2**e * (1 + m)`` by AVX512's ``getexp`` of ``(1 + d) / 0.75``, ``m`` by one fused
    multiply-add; then, in double-float arithmetic (a value and its rounding error), ``e * ln(2)``
    plus ``2 * atanh(m / (2 + m))``, whose series' last three terms are one float polynomial; -inf
    at -1, NaN below, -0 kept. Beyond 1e38 SLEEF takes its ``logf`` (here the rounded float64).

    Args:
        d (ndarray): float32 data.

    Returns:
        ndarray: float32, ``log1p(d)`` with SLEEF's roundings.
    """
    d = np.asarray(d, _F32)
    one, two = _F32(1), _F32(2)
    with np.errstate(all="ignore"):
        e = _getexp32((d + one) * _F32(1.0 / 0.75))
        e = np.where(np.isposinf(e), _F32(128), e)
        q = -np.rint(np.nan_to_num(e, nan=0, posinf=128, neginf=-150)).astype(np.int32)
        t = (np.int32(0x3F800000) + (q << 23)).view(_F32)  # 2**-e, by the exponent bits
        m = fma32(d, t, t - one)
        # s = e * ln(2), ln(2) in two floats, as a value and its error
        hi, lo = _F32(0.69314718246459960938), _F32(-1.904654323148236017e-09)
        s = hi * e
        s_err = fma32(lo, e, fma32(hi, e, -s))
        # x = m / (2 + m) in double-float: the quotient and the error of dividing by 2 + m's value
        den = two + m
        den_err = (two - den) + m
        inv = one / den
        x = m * inv
        x_err = fma32(x, fma32(-den_err, inv, fma32(-den, inv, one)), fma32(inv, m, -x))
        x2 = x * x
        p = _F32(0.3027294874)
        for c in (0.3996108174, 0.6666694880):
            p = fma32(p, x2, _F32(c))
        # s + 2x, then + x**3 * p, each sum keeping its error; the two halves added last
        total = s + two * x
        s_err = (((s - total) + two * x) + s_err) + two * x_err
        tail = (x2 * x) * p
        r = total + tail
        r = r + (((total - r) + tail) + s_err)
        r = np.where(d > _F32(1e38), np.log(d.astype(np.float64)).astype(_F32), r)
        r = np.where(d < -1, _F32(np.nan), np.where(d == -1, _F32(-np.inf), r))
        r = np.where((d == 0) & np.signbit(d), d, r)
    return r.astype(_F32, copy=False)
