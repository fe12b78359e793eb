"""Scalar ATen kernels that call the C library print glibc's last digits: binary cross-entropy
(``std::log`` and ``std::log1p`` on each float), ``xlogy``, and the activations' kernels on a
short tensor or the tail of a long one (softplus, the ELU family, mish, GELU's tanh form).

glibc's ``logf``, ``log1pf``, ``expm1f`` and ``tanhf`` are not correctly rounded, so the float64
result rounded once (what the ``log``, ``log1p``, ``expm1`` and ``tanh`` ops match) differs from
them in about 0.7%, 7%, 9% and 14% of inputs: a logistic regression's ``print(loss.item())`` then
shows another last digit. ``_glibc32`` follows glibc's algorithms. The expectations were read off glibc
2.36 and PyTorch 2.13 (the golden ``fid_act_01_libm_digits`` prints the kernels' every digit); the
sweeps compare bit for bit with this machine's glibc where it is that one.
"""
import ctypes
import ctypes.util

import numpy as np
import pytest

import autograd_py as torch
from autograd_py import _glibc32

F32 = np.float32


def _glibc():
    """This machine's libm functions by name, or None when it is not a glibc whose float functions
    are the ones followed (2.27, Arm's logf, up to 2.40)."""
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version.restype = ctypes.c_char_p
        major, minor = map(int, libc.gnu_get_libc_version().decode().split(".")[:2])
        libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    except (OSError, AttributeError, ValueError):
        return None
    if (major, minor) < (2, 27) or (major, minor) > (2, 40):
        return None
    fns = {}
    for name in ("logf", "log1pf", "expm1f", "tanhf"):
        fn = fns[name] = getattr(libm, name)
        fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return fns


GLIBC = _glibc()


def _bits(a):
    return np.asarray(a, F32).view(np.uint32)


@pytest.mark.parametrize("x, glibc, rounded", [
    (0.6221792101860046, -0.9733352661132812, -0.973335325717926),
    (0.5981840491294861, -0.9117611646652222, -0.9117611050605774),
    (0.3876318037509918, -0.4904215335845947, -0.4904215633869171),
    (0.5184628367424011, -0.7307718992233276, -0.7307718396186829),  # the logistic regression's
])
def test_log1pf_of_minus_x_is_glibcs_not_the_rounded_float64(x, glibc, rounded):
    x = F32(x)
    assert _glibc32.log1pf(np.array([-x]))[0] == F32(glibc)
    assert F32(np.log1p(-np.float64(x))) == F32(rounded) != F32(glibc)


@pytest.mark.parametrize("x, glibc, rounded", [
    (0.9509382247924805, -0.050306178629398346, -0.05030617490410805),
    (0.8886992931365967, -0.11799635738134384, -0.11799634993076324),
    (0.979596734046936, -0.02061428688466549, -0.02061428874731064),
])
def test_logf_is_glibcs_not_the_rounded_float64(x, glibc, rounded):
    x = F32(x)
    assert _glibc32.logf(np.array([x]))[0] == F32(glibc)
    assert F32(np.log(np.float64(x))) == F32(rounded) != F32(glibc)


def test_special_values():
    x = np.array([0, -0.0, 1, -1, -1.5, 2.0 ** -30, -(2.0 ** -60), np.inf, -np.inf, np.nan, 1e-45], F32)
    with np.errstate(all="ignore"):
        log1p = _glibc32.log1pf(x)
        log = _glibc32.logf(x)
    assert _bits(log1p[:2]).tolist() == _bits([0, -0.0]).tolist()  # log1p keeps the sign of zero
    assert log1p[2] == F32(np.log(2)) and log1p[3] == -np.inf and np.isnan(log1p[4])
    assert log1p[5] == F32(2.0 ** -30) - F32(2.0 ** -61) and log1p[6] == x[6]  # x - x²/2, then x
    assert log1p[7] == np.inf and np.isnan(log1p[8]) and np.isnan(log1p[9])
    assert log[2] == 0 and log[0] == log[1] == -np.inf and np.isnan(log[3]) and log[7] == np.inf
    assert np.isnan(log[8]) and np.isnan(log[9]) and log[10] == F32(np.log(np.float64(x[10])))  # a subnormal
    assert log1p.dtype == log.dtype == F32


@pytest.mark.parametrize("name, x, glibc, rounded", [
    ("expm1f", -1.2409497499465942, -0.710890531539917, -0.7108904719352722),
    ("expm1f", -1.0773857831954956, -0.6595155000686646, -0.6595155596733093),
    ("tanhf", -0.5482757091522217, -0.49922680854797363, -0.49922677874565125),
    ("tanhf", 0.9796841144561768, 0.7529290914535522, 0.752929151058197),
])
def test_expm1f_and_tanhf_are_glibcs_not_the_rounded_float64(name, x, glibc, rounded):
    x = F32(x)
    assert getattr(_glibc32, name)(np.array([x]))[0] == F32(glibc)
    reference = np.expm1 if name == "expm1f" else np.tanh
    assert F32(reference(np.float64(x))) == F32(rounded) != F32(glibc)


@pytest.mark.skipif(GLIBC is None, reason="needs glibc 2.27-2.40's float functions")
@pytest.mark.parametrize("name", ["logf", "log1pf", "expm1f", "tanhf"])
def test_bit_for_bit_with_this_machines_glibc(name):
    rng = np.random.default_rng(13)
    x = np.concatenate([
        rng.random(40_000).astype(F32), -rng.random(40_000).astype(F32),
        rng.integers(0, 2 ** 32, 40_000, dtype=np.uint64).astype(np.uint32).view(F32),  # any float
        (1 + rng.standard_normal(20_000) * 1e-3).astype(F32), (rng.standard_normal(40_000) * 30).astype(F32)])
    libm = GLIBC[name]
    expected = np.array([libm(float(v)) for v in x], F32)
    with np.errstate(all="ignore"):
        got = getattr(_glibc32, name)(x)
    same = (_bits(got) == _bits(expected)) | (np.isnan(got) & np.isnan(expected))
    assert same.all(), (x[~same][:5], got[~same][:5], expected[~same][:5])


def test_bce_prints_pytorchs_digits():
    # A logistic regression's first loss (liuer's lecture): sigmoid(linear(x)) after manual_seed(1),
    # BCELoss(reduction='sum'), as PyTorch 2.13 prints it; the rounded float64 log1p gave ...040863037
    p = torch.tensor([[0.5184628367424011], [0.6431697010993958], [0.7510857582092285]])
    y = torch.tensor([[0.], [0.], [1.]])
    loss = torch.nn.BCELoss(reduction="sum")(p, y)
    assert loss.item() == 2.047502279281616
    per = torch.nn.functional.binary_cross_entropy(p, y, reduction="none")
    assert per.flatten().tolist() == [0.7307718992233276, 1.0304949283599854, 0.2862354516983032]
    assert torch.nn.BCELoss()(p, y).item() == 0.6825007796287537


def test_xlogy_takes_glibcs_logf():
    x = torch.tensor([1.0, 2.0, 0.0])
    y = torch.tensor([0.9509382247924805, 0.8886992931365967, 0.5])
    assert torch.xlogy(x, y).tolist() == [-0.050306178629398346, -0.23599271476268768, 0.0]


def test_expm1f_and_tanhf_special_values():
    x = np.array([0, -0.0, np.inf, -np.inf, np.nan, 100, -100, 30, -30, 2.0 ** -40], F32)
    with np.errstate(all="ignore"):
        e, t = _glibc32.expm1f(x), _glibc32.tanhf(x)
    assert _bits(e[:2]).tolist() == _bits(t[:2]).tolist() == _bits([0, -0.0]).tolist()
    assert e[2] == np.inf and e[3] == -1 and np.isnan(e[4]) and e[5] == np.inf and e[6] == -1
    assert e[9] == x[9] and t[9] == x[9]  # tiny: x itself
    assert t[2] == 1 and t[3] == -1 and np.isnan(t[4]) and t[7] == 1 and t[8] == -1
