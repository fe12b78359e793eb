"""glibc's float32 ``logf``, ``log1pf``, ``expm1f`` and ``tanhf``, step for step, in NumPy.

ATen's scalar kernels call ``std::log``, ``std::log1p``, ``std::expm1`` and ``std::tanh`` on each
float: binary cross-entropy and ``xlogy`` on every element, the activations' ``cpu_kernel_vec``
on a short tensor or the tail of a long one (``_fp.vectorized_loop32``). Those are glibc's (2.27
to 2.40), which are not correctly rounded: the float64 result rounded once, what the ``log``,
``log1p``, ``expm1`` and ``tanh`` ops match (MKL's), differs from them in about 0.7%, 7%, 9% and
14% of inputs. Each function here follows glibc's algorithm in the same float32 (or, for
``logf``, float64) arithmetic, so it gives glibc's bits, in CPython and in Pyodide alike
(``tests/test_glibc32_digits.py`` sweeps them against this machine's glibc).
"""
import numpy as np

_F32 = np.float32


# fdlibm's log1pf (glibc's float log1p) constants, as float32 bit patterns: ln(2) in a high part
# exact in float32 and the rest, and the series' coefficients Lp1..Lp7.
_LN2_HI_BITS, _LN2_LO_BITS = 0x3F317180, 0x3717F7D1
_LOG1P_POLY_BITS = (0x3F2AAAAB, 0x3ECCCCCD, 0x3E924925, 0x3E638E29, 0x3E3A3325, 0x3E1CD04F, 0x3E178897)


def _f32(bits):
    return np.array(bits, np.uint32).view(_F32)[()]


# (made once: in Pyodide each NumPy call on a short array costs ~1-3 us, and BCE calls these per step)
_LN2_HI, _LN2_LO = _f32(_LN2_HI_BITS), _f32(_LN2_LO_BITS)
_LOG1P_POLY = tuple(_f32(b) for b in _LOG1P_POLY_BITS)
_ONE, _HALF, _TWO, _ZERO = _F32(1), _F32(0.5), _F32(2), _F32(0)


def log1pf(x):
    """float32 ``log1p`` as the C library's ``log1pf`` (glibc's: Sun's fdlibm algorithm) rounds it.

    Where ATen calls ``std::log1p`` on a float in a scalar kernel (binary cross-entropy's), the
    result is glibc's, which is not correctly rounded: rounding the float64 ``log1p`` (what the
    ``log1p`` op matches) differs from it in about 7% of inputs in [-1, 0]. This follows fdlibm's
    steps in float32 arithmetic: ``1 + x`` split into ``2**k * (1 + f)`` with a correction term
    for the rounding of ``1 + x``, then ``log(1 + f)`` by ``s = f / (2 + f)`` and a degree-7
    series in ``s**2``, plus ``k * ln(2)`` in two parts; -inf at -1, NaN below.

    Args:
        x (ndarray): float32 data.

    Returns:
        ndarray: float32, ``log1pf(x)``.
    """
    x = np.asarray(x, _F32)
    shape = x.shape
    x = x.reshape(-1)  # (at least one dim: masks are written into below)
    hx = x.view(np.int32)
    with np.errstate(all="ignore"):
        # k = 0 (-0.2929 < x < 0.41422): f is x itself; elsewhere 1 + x = 2**k * (1 + f), and c is
        # what rounding 1 + x lost, relative to it (none when 1 + x is x, from 2**53 up)
        small = (hx < 0x3ED413D7) & ((hx > 0) | (hx <= np.int32(-0x416A09E1)))  # (0xbe95f61f)
        huge = hx >= 0x5A000000
        u = _ONE + x
        if huge.any():
            u = np.where(huge, x, u)
        hu = u.view(np.int32)
        k = (hu >> 23) - 127
        c = np.where(k > 0, _ONE - (u - x), x - (u - _ONE)) / u
        c[huge | small] = 0
        hu = hu & 0x007FFFFF
        high = hu >= 0x3504F7  # 1 + f from sqrt(2) up: normalised to [0.5, 1), k + 1; else to [1, 2)
        u = (hu | 0x3F800000).view(_F32)
        if high.any():
            u = np.where(high, (hu | 0x3F000000).view(_F32), u)
            k = k + high
            hu = np.where(high, (0x00800000 - hu) >> 2, hu)
        f = np.where(small, x, u - _ONE)
        k[small] = 0
        hu[small] = 1
        kf = k.astype(_F32)
        hfsq = _HALF * f * f
        s = f / (_TWO + f)
        z = s * s
        r = _LOG1P_POLY[-1]
        for coefficient in _LOG1P_POLY[-2::-1]:
            r = coefficient + z * r
        r = z * r
        lo = kf * _LN2_LO + c
        out = np.where(k == 0, f - (hfsq - s * (hfsq + r)), kf * _LN2_HI - ((hfsq - (s * (hfsq + r) + lo)) - f))
        flat = hu == 0  # |f| < 2**-20: a shorter series, or exactly k * ln(2) when f is 0
        if flat.any():
            r0 = hfsq * (_ONE - _F32(0.66666666666666666) * f)
            near = np.where(k == 0, f - r0, kf * _LN2_HI - ((r0 - lo) - f))
            exact = np.where(k == 0, _ZERO, kf * _LN2_HI + (c + kf * _LN2_LO))
            out = np.where(flat, np.where(f == 0, exact, near), out)
        ax = hx & 0x7FFFFFFF
        tiny = ax < 0x31000000  # |x| < 2**-29: x, less x**2 / 2 from 2**-54 up
        if tiny.any():
            out = np.where(tiny, np.where(ax < 0x24800000, x, x - x * x * _HALF), out)
        odd = (hx >= 0x7F800000) | (x <= -1) | np.isnan(x)
        if odd.any():
            out = np.where(hx >= 0x7F800000, x + x, out)  # inf, NaN
            out = np.where(x == -1, _F32(-np.inf), np.where(x < -1, _F32(np.nan), out))
    return out.astype(_F32, copy=False).reshape(shape)


# glibc's logf (Arm's optimized-routines algorithm): 16 subintervals of [0.7, 1.4], each with 1/c
# and log(c) for a c near its centre, ln(2), and the series' coefficients past the first (1).
_LOGF_TABLE = np.array([[float.fromhex(a), float.fromhex(b)] for a, b in (
    ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"), ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
    ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"), ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
    ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"), ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"), ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"), ("0x1p+0", "0x0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"), ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
    ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"), ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
    ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"), ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"))])
_LOGF_INVC, _LOGF_LOGC = np.ascontiguousarray(_LOGF_TABLE[:, 0]), np.ascontiguousarray(_LOGF_TABLE[:, 1])
_LOGF_LN2 = float.fromhex("0x1.62e42fefa39efp-1")
_LOGF_POLY = tuple(float.fromhex(c) for c in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2"))
_LOGF_OFF = 0x3F330000


def logf(x):
    """float32 ``log`` as the C library's ``logf`` (glibc's since 2.27: Arm's algorithm) rounds it.

    Where ATen calls ``std::log`` on a float in a scalar kernel (binary cross-entropy's), the result
    is glibc's, within 0.82 ulp but not correctly rounded: rounding the float64 ``log`` differs from
    it in about 0.7% of inputs in (0, 1). This follows its steps in float64: ``x = 2**k * z`` with
    ``z`` in [0.7, 1.4], ``r = z / c - 1`` for the ``c`` of z's subinterval, then
    ``log(c) + k * ln(2) + r`` plus a cubic in ``r``, rounded once. (glibc's FMA build fuses its
    multiply-adds; on 500,000 inputs that changed no float32 result.)

    Args:
        x (ndarray): float32 data.

    Returns:
        ndarray: float32, ``logf(x)``.
    """
    x = np.asarray(x, _F32)
    ix = x.view(np.uint32).astype(np.int64)
    with np.errstate(all="ignore"):
        sub = (ix > 0) & (ix < 0x00800000)  # a subnormal is scaled by 2**23 first
        if sub.any():
            ix = np.where(sub, (x * _F32(2.0 ** 23)).view(np.uint32).astype(np.int64) - (23 << 23), ix)
        tmp = ix - _LOGF_OFF
        i = (tmp >> 19) & 15  # the subinterval: z's 4 leading mantissa bits, from 0.7 on
        k = (tmp >> 23).astype(np.float64)  # (int64: an arithmetic shift, as glibc's on int32)
        z = (ix - (tmp & ~0x7FFFFF)).astype(np.uint32).view(_F32).astype(np.float64)
        invc, logc = _LOGF_INVC[i], _LOGF_LOGC[i]
        a0, a1, a2 = _LOGF_POLY
        r = z * invc - 1
        r2 = r * r
        out = ((a0 * r2 + (a1 * r + a2)) * r2 + ((logc + k * _LOGF_LN2) + r)).astype(_F32)
        odd = ~(x > 0) | (x == 1) | np.isposinf(x)  # 0, negatives, NaN, 1 (exactly 0) and inf
        if odd.any():
            out = np.where(x == 1, _F32(0), out)
            out = np.where(x == 0, _F32(-np.inf), out)
            out = np.where((x < 0) | np.isnan(x), _F32(np.nan), np.where(np.isposinf(x), x, out))
    return out


# fdlibm's expm1f (glibc's float expm1): ln(2) in two parts, 1/ln(2), and the scaled series
# coefficients Q1..Q5, as float32 bit patterns.
_INVLN2_BITS = 0x3FB8AA3B
_EXPM1_POLY_BITS = (0xBD088889, 0x3AD00D01, 0xB8A670CD, 0x36867E54, 0xB457EDBB)
_INVLN2, _EXPM1_POLY = _f32(_INVLN2_BITS), tuple(_f32(b) for b in _EXPM1_POLY_BITS)


def expm1f(x):
    """float32 ``expm1`` as the C library's ``expm1f`` (glibc's: Sun's fdlibm algorithm) rounds it.

    ATen's ELU kernels call ``std::expm1`` on each float of a short tensor (or the tail of a long
    one); glibc's differs from the rounded float64 ``expm1`` in about 9% of inputs. This follows
    fdlibm's steps in float32 arithmetic: ``x = k * ln(2) + r`` (ln(2) in two parts, with the
    correction ``c`` the split loses), ``expm1(r)`` by a rational form in ``r**2 / 2`` with a
    degree-5 series, then ``2**k * (1 + expm1(r)) - 1`` put together so as to lose no bits.

    Args:
        x (ndarray): float32 data.

    Returns:
        ndarray: float32, ``expm1f(x)``.
    """
    x = np.asarray(x, _F32)
    bits = x.view(np.uint32)
    hx = bits & np.uint32(0x7FFFFFFF)
    neg = bits >= np.uint32(0x80000000)
    one, half, ln2_hi, ln2_lo = _ONE, _HALF, _LN2_HI, _LN2_LO
    with np.errstate(all="ignore"):
        # x = k * ln(2) + (hi - lo): k = +-1 up to 1.5 ln(2), else the nearest integer to x / ln(2)
        near = hx < 0x3F851592
        kk = (_INVLN2 * x + np.where(neg, -half, half))
        k = np.where(near, np.where(neg, -1, 1), np.trunc(np.nan_to_num(kk, posinf=0, neginf=0))).astype(np.int32)
        t = k.astype(_F32)
        hi = np.where(near, np.where(neg, x + ln2_hi, x - ln2_hi), x - t * ln2_hi)
        lo = np.where(near, np.where(neg, -ln2_lo, ln2_lo), t * ln2_lo)
        reduced = hx > 0x3EB17218  # |x| > ln(2) / 2
        r = np.where(reduced, hi - lo, x)
        c = np.where(reduced, (hi - r) - lo, _F32(0))
        k = np.where(reduced, k, 0)
        hfx = half * r
        hxs = r * hfx
        q = _EXPM1_POLY[-1]
        for coefficient in _EXPM1_POLY[-2::-1]:
            q = coefficient + hxs * q
        r1 = one + hxs * q
        t3 = _F32(3) - r1 * hfx
        e = hxs * ((r1 - t3) / (_F32(6) - r * t3))
        plain = r - (r * e - hxs)  # k = 0
        e = (r * (e - c) - c) - hxs
        minus_one = half * (r - e) - half
        plus_one = np.where(r < _F32(-0.25), _F32(-2) * (e - (r + half)), one + _F32(2) * (r - e))
        # 2**k * (1 + r - e) - 1, put together by adding k to an exponent (k is at most 128 here;
        # the clips only keep the shifts of the lanes that do not use them in range)
        far = _scaled(one - (e - r), k) - one  # k <= -2 or k > 56
        low_t = (np.uint32(0x3F800000) - (np.uint32(0x1000000) >> np.clip(k, 0, 31).astype(np.uint32))).view(_F32)
        mid = _scaled(low_t - (e - r), k)  # 2 <= k < 23
        high_t = ((np.uint32(0x7F) - np.clip(k, 0, 127).astype(np.uint32)) << np.uint32(23)).view(_F32)
        top = _scaled((r - (e + high_t)) + one, k)  # 23 <= k <= 56
        out = np.where(k == 0, plain, np.where(k == -1, minus_one, np.where(k == 1, plus_one, np.where(
            (k <= -2) | (k > 56), far, np.where(k < 23, mid, top)))))
        out = np.where(hx < 0x33000000, x, out)  # |x| < 2**-25: x itself
        big = hx >= 0x4195B844  # |x| >= 27 ln(2): -1 below, inf past overflow, NaN
        out = np.where(big & neg, -one, out)
        out = np.where(big & ~neg & (x > _F32(88.7216796875)), _F32(np.inf), out)
        out = np.where(np.isnan(x), x, out)
    return out.astype(_F32, copy=False)


def _scaled(y, k):
    """``y * 2**k`` by adding ``k`` to the exponent bits, as fdlibm does (no rounding, no overflow check)."""
    return (y.view(np.int32) + (k.astype(np.int32) << 23)).view(_F32)


def tanhf(x):
    """float32 ``tanh`` as the C library's ``tanhf`` (glibc's: fdlibm's, through ``expm1f``).

    ``1 - 2 / (expm1(2|x|) + 2)`` from |x| = 1 up, ``-expm1(-2|x|) / (expm1(-2|x|) + 2)`` below,
    the sign put back; 1 from |x| = 22 on. It differs from the rounded float64 ``tanh`` in about
    14% of inputs (the ``tanh`` op itself matches that one: MKL's).

    Args:
        x (ndarray): float32 data.

    Returns:
        ndarray: float32, ``tanhf(x)``.
    """
    x = np.asarray(x, _F32)
    ax = np.abs(x)
    one, two = _F32(1), _F32(2)
    with np.errstate(all="ignore"):
        big = ax >= one
        t = expm1f(np.where(big, two * ax, -two * ax))
        z = np.where(big, one - two / (t + two), -t / (t + two))
        z = np.where(ax >= _F32(22), one, z)
        out = np.where(np.signbit(x), -z, z)
        out = np.where(ax < _F32(2.0 ** -55), x * (one + x), out)  # tiny, and +-0: x
        out = np.where(np.isnan(x), x, out)
    return out.astype(_F32, copy=False)
