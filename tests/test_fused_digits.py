"""PyTorch's CPU kernels are compiled with FMA contraction: ``a * b + c`` is rounded once.

``add(alpha=)``, ``lerp``, ``addcmul`` and the optimizers' updates built on them thus differ from
NumPy's two roundings in the last digit of 1-30% of values, which a printed ``.tolist()`` or
``.item()`` shows. ``_fp.fma32`` (exact through the float64 product) and ``_fp.fma64`` (Dekker's
error-free product) reproduce them. The expectations were read off PyTorch 2.13; the sweeps compare
bit for bit with torch where it is installed.
"""
import numpy as np
import pytest

import autograd_py as torch


def ramp(k, m, d):
    """Twelve reproducible float64 values without a random generator."""
    return ((np.arange(12) * k) % m - m // 2) / d


def test_float64_sgd_with_momentum_steps_as_pytorchs_fused_kernels():
    w = torch.tensor(ramp(7, 11, 3.7), requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
    for g in (ramp(5, 13, 2.9), ramp(3, 7, 1.7)):
        w.grad = torch.tensor(g)
        opt.step()
    # two roundings per update gave -0.7817773148401952 and -1.0862672002631433
    assert w.detach().tolist() == [
        -0.7817773148401951, 0.6060577819198507, -0.979080094293076, 1.6722438462803575,
        0.08710597006743045, -1.0862672002631435, 1.153292034427937, -0.020081135902636937,
        -0.7534948741845292, 0.6343402225755166, -0.5390329477550573, -1.2724466860369497]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("config", [{"lr": 0.01}, {"lr": 0.05, "momentum": 0.9},
                                    {"lr": 0.01, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01},
                                    {"lr": 0.01, "momentum": 0.5, "dampening": 0.1, "maximize": True}])
def test_sgd_matches_torch_bit_for_bit(dtype, config):
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    start = rng.standard_normal(500).astype(dtype)
    grads = [rng.standard_normal(500).astype(dtype) for _ in range(4)]
    finals = []
    for lib in (real, torch):
        w = lib.tensor(start.copy(), requires_grad=True)
        opt = lib.optim.SGD([w], **config)
        for g in grads:
            w.grad = lib.tensor(g.copy())
            opt.step()
        finals.append(w.detach().numpy().tobytes())
    assert finals[0] == finals[1]


def test_a_0dim_fma64_is_the_array_fma64_to_the_bit():
    # 0-dim operands take Python floats (an optimizer's step on micrograd's scalars); specials and
    # values whose splitting overflows (|x| > 1e300) included, NaNs with their sign
    from autograd_py import _fp
    specials = [0.0, -0.0, 1.0, -0.05, 1 / 3, 1e308, -1.3e300, 5e-324, 2.2e-308, np.inf, -np.inf, np.nan, -np.nan]
    rng = np.random.default_rng(5)
    values = specials + list(rng.standard_normal(20) * 10.0 ** rng.integers(-30, 30, 20))
    a, b, c = (np.array(v) for v in np.meshgrid(values, values[::-1], values[1:] + values[:1], indexing="ij"))
    with np.errstate(all="ignore"):
        arrays = _fp.fma64(a.ravel(), b.ravel(), c.ravel())
        scalars = [_fp.fma64(np.asarray(x), y, np.asarray(z)) for x, y, z in zip(a.ravel(), b.ravel(), c.ravel())]
    assert all(type(s) is np.float64 for s in scalars)
    assert np.array(scalars).tobytes() == arrays.tobytes()


@pytest.mark.parametrize("name, config", [
    ("RMSprop", {"lr": 0.01}), ("RMSprop", {"lr": 0.01, "alpha": 0.9, "momentum": 0.9}),
    ("RMSprop", {"lr": 0.01, "centered": True, "weight_decay": 0.1, "momentum": 0.5}),
    ("RMSprop", {"lr": 0.02, "maximize": True, "eps": 1e-3}),
    ("Adagrad", {"lr": 0.1}), ("Adagrad", {"lr": 0.1, "lr_decay": 0.05, "initial_accumulator_value": 0.5}),
    ("Adagrad", {"lr": 0.3, "weight_decay": 0.01, "maximize": True, "eps": 1e-4})])
def test_rmsprop_and_adagrad_match_torch(name, config):
    # the same steps, but for MKL's sqrt (the sqrt op's own last digits, README), which rounds
    # about 1 in 6 float32 roots and 1 in 70 float64 ones otherwise than the exact root: a
    # last-digit difference in those updates, growing by a few ulps at most over the steps
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(4)
    for dtype in (np.float64, np.float32):
        start = rng.standard_normal(500).astype(dtype)
        grads = [rng.standard_normal(500).astype(dtype) for _ in range(5)]
        finals = []
        for lib in (real, torch):
            w = lib.tensor(start.copy(), requires_grad=True)
            opt = getattr(lib.optim, name)([w], **config)
            for g in grads:
                w.grad = lib.tensor(g.copy())
                opt.step()
            finals.append(w.detach().numpy())
        assert np.mean(finals[0] != finals[1]) < (0.2 if dtype == np.float32 else 0.03)  # (seen: 14%, 1%)
        tight = 2e-6 if dtype == np.float32 else 1e-14
        np.testing.assert_allclose(finals[1], finals[0], rtol=tight, atol=tight / 10)
