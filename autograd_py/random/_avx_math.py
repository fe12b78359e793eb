"""Float32 ``log``, ``sin`` and ``cos`` exactly as PyTorch's AVX2 ``randn`` kernel computes them.

``torch.randn`` on float32 tensors of 16 or more elements runs Box-Muller with the Cephes-style
polynomials of ``aten/src/ATen/native/cpu/avx_mathfun.h`` (on AVX512 machines too: the normal
kernel is not built for AVX512). The compiler fuses each multiply feeding an add into one fma, so
each such step here is one :func:`fma_step` (float64 product, one rounding to float32).
"""
import numpy as np

f32 = np.float32
_LOG_P = [f32(v) for v in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
                           1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1,
                           3.3333331174E-1)]
_LOG_Q1, _LOG_Q2, _SQRTHF = f32(-2.12194440e-4), f32(0.693359375), f32(0.707106781186547524)
_DP = [np.float64(f32(v)) for v in (-0.78515625, -2.4187564849853515625e-4, -3.77489497744594108e-8)]
_COS = [f32(v) for v in (2.443315711809948E-005, -1.388731625493765E-003, 4.166664568298827E-002)]
_SIN = [f32(v) for v in (-1.9515295891E-4, 8.3321608736E-3, -1.6666654611E-1)]
_FOPI = f32(1.27323954473516)


class _Steps:
    """Scratch buffers so that each fused step is two NumPy calls and no allocation."""

    def __init__(self, shape, check_ties=True):
        self.wide = np.empty(shape, np.float64)
        self.check_ties = check_ties
        self.ties = np.zeros(shape, bool) if check_ties else None

    def fma(self, a, b, c, out):
        """``out = round_f32(a * b + c)``; ``b`` may be a float64 array or scalar (then exact)."""
        np.multiply(a, b, out=self.wide, dtype=np.float64)
        np.add(self.wide, c, out=self.wide, dtype=np.float64)
        if self.check_ties:
            # A float64 sum exactly half-way between two float32 may round differently from one
            # fma: mark those (rare) elements so that the caller redoes them with exact steps.
            self.ties |= (self.wide.view(np.uint64) & np.uint64((1 << 29) - 1)) == np.uint64(1 << 28)
        out[...] = self.wide
        return out


_SQRTHF_MANTISSA = 0x3504F3  # mantissa bits of float32(sqrt(0.5))
_SIGN = np.int32(-(1 << 31))


def log(x, st):
    """``log256_ps`` for positive normal float32 ``x`` (Box-Muller's ``1 - u`` is in (0, 1]).

    The kernel's float masks become integer masks here (``-1`` or ``0``): same bits, fewer passes.
    """
    bits = x.view(np.int32)
    mantissa = bits & 0x007FFFFF
    small = (mantissa - _SQRTHF_MANTISSA) >> 31  # -1 where the mantissa (in [0.5, 1)) < sqrt(0.5)
    e = ((bits >> 23) - 0x7E + small).astype(f32)
    m_bits = mantissa | 0x3F000000
    tmp = (m_bits & small).view(f32)
    m = m_bits.view(f32)
    m -= f32(1)
    m += tmp
    z = m * m
    y = np.empty_like(m)
    st.fma(m, _LOG_P[0], _LOG_P[1], y)
    for p in _LOG_P[2:]:
        st.fma(y, m, p, y)
    y *= m
    st.fma(y, z, e * _LOG_Q1, y)
    st.fma(z, f32(-0.5), y, y)
    m += y
    return st.fma(e, _LOG_Q2, m, m)


def sincos(x, st):
    """``sincos256_ps`` for float32 ``x >= 0`` (Box-Muller's ``2*pi*u``): returns ``(sin, cos)``."""
    j = (x * _FOPI).astype(np.int32)
    j += 1
    j &= ~1
    y = j.astype(np.float64)
    r = np.empty_like(x)
    st.fma(y, _DP[0], x, r)
    st.fma(y, _DP[1], r, r)
    st.fma(y, _DP[2], r, r)
    z = r * r
    yc = np.empty_like(r)
    st.fma(z, _COS[0], _COS[1], yc)
    st.fma(yc, z, _COS[2], yc)
    yc *= z
    st.fma(yc, z, -(z * f32(0.5)), yc)
    yc += f32(1)
    ys = np.empty_like(r)
    st.fma(z, _SIN[0], _SIN[1], ys)
    st.fma(ys, z, _SIN[2], ys)
    ys *= z
    st.fma(ys, r, r, ys)
    # Select the polynomial and flip signs on the bits, as the kernel does with and/andnot/xor.
    yc_bits, ys_bits = yc.view(np.int32), ys.view(np.int32)
    use_sin_poly = ((j & 2) >> 1) - 1  # -1 where bit 1 of j is clear
    sin_bits = ys_bits ^ yc_bits
    sin_bits &= use_sin_poly
    sin_bits ^= yc_bits  # ys where use_sin_poly, else yc
    cos_bits = ys_bits ^ yc_bits
    cos_bits ^= sin_bits  # the other one
    sin_bits ^= (j & 4) << 29
    cos_bits ^= (~(j - 2) & 4) << 29
    return sin_bits.view(f32), cos_bits.view(f32)
