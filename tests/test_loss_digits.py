"""Losses print PyTorch's last digits: a tutorial's ``print(loss.item())`` shows every digit.

``mse_loss`` reduces as ``loss.sum()`` / ``loss.mean()`` do (float32 in PyTorch's own order, see
``ops/float_sum``), and its backward multiplies in ATen's kernel's order (``norm * (x - t) * grad``).
``nll_loss`` (hence ``cross_entropy``) adds its picked losses and weights in ATen's eight-level
cascade and divides the gradient by the total weight before it multiplies by the class weight.
The expectations were read off PyTorch 2.13; the earlier float64 accumulation and ``(x - t) * 2 * grad
/ numel`` gave other last digits on each of these cases. The sweeps at the end compare bit for bit
with torch where it is installed.
"""
import numpy as np
import pytest

import autograd_py as torch
import autograd_py.nn.functional as F


def grid(shape, a, b, d, offset=0):
    """Reproducible inputs without a random generator: rationals of small integers."""
    i, j = np.meshgrid(np.arange(shape[0]), np.arange(shape[1]), indexing="ij")
    return ((i * a + j * b + offset) % 11 - 5) / d


def test_float32_mse_loss_and_its_gradient_have_pytorchs_digits():
    x = torch.tensor(grid((20, 1), 3, 0, 3.7)[:, 0].astype(np.float32), requires_grad=True)
    t = torch.tensor(grid((20, 1), 5, 0, 4.1, 3)[:, 0].astype(np.float32))
    loss = F.mse_loss(x, t)
    (loss * 0.3).backward()
    assert loss.item() == 1.3085230588912964  # float64 accumulation gave 1.3085229396820068
    head = [-0.0259063970297575, -0.03816743940114975, 0.03005932830274105, 0.01779828406870365,
            -0.0031641379464417696, -0.01542518101632595, 0.05280158296227455, 0.04054054617881775,
            -0.0609096921980381, 0.00731707364320755, -0.004943969659507275]
    assert x.grad.tolist() == head + head[:9]


def test_nll_loss_adds_in_atens_cascade_and_scales_the_gradient_as_it_does():
    logp = torch.tensor(grid((40, 3), 7, 3, 3.7).astype(np.float32), requires_grad=True)
    y = torch.tensor(np.arange(40) * 5 % 3)
    loss = F.nll_loss(logp, y)
    (loss * 0.7).backward()
    assert loss.item() == 0.013513525947928429  # float64 accumulation gave 0.013513514772057533
    assert logp.grad[:2].tolist() == [[-0.017500000074505806, 0.0, 0.0], [0.0, 0.0, -0.017500000074505806]]


def test_weighted_nll_loss_with_ignored_targets():
    logp = torch.tensor(grid((40, 3), 7, 3, 3.7).astype(np.float32))
    w = torch.tensor(np.array([0.5, 2.0, 1.3], np.float32))
    y = torch.tensor(np.where(np.arange(40) % 7 == 3, -100, np.arange(40) * 5 % 3))
    assert F.nll_loss(logp, y, weight=w).item() == 0.015973424538969994
    per_sample = F.nll_loss(logp, y, weight=w, reduction="none")
    # an ignored target's loss is +0.0, as ATen writes it (not -0.0 = -x * 0)
    assert per_sample[:4].tolist() == [0.6756756901741028, 1.0540540218353271, -0.5405405163764954, 0.0]
    assert str(per_sample[3].item()) == "0.0"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nll_loss_matches_torch_bit_for_bit(dtype):
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    for _ in range(60):
        n, c = int(rng.integers(1, 300)), int(rng.integers(2, 6))
        x = rng.standard_normal((n, c)).astype(dtype)
        y = rng.integers(0, c, n)
        y[rng.random(n) < 0.2] = -100
        w = rng.random(c).astype(dtype)
        for weighted, reduction in ((False, "mean"), (True, "mean"), (False, "sum"), (True, "none")):
            outs = []
            for lib in (real, torch):
                xt = lib.tensor(x, requires_grad=True)
                loss = lib.nn.functional.nll_loss(xt, lib.tensor(y), weight=lib.tensor(w) if weighted else None,
                                                  reduction=reduction)
                (loss.sum() * 0.7).backward()
                outs.append((loss.detach().numpy().tobytes(), xt.grad.numpy().tobytes()))
            assert outs[0] == outs[1] or np.isnan(x).any(), (n, c, weighted, reduction)


def test_float32_mse_loss_matches_torch_bit_for_bit():
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    for _ in range(100):
        shape = tuple(int(s) for s in rng.integers(1, 9, int(rng.integers(1, 4))))
        a, b = (rng.standard_normal(shape).astype(np.float32) for _ in range(2))
        outs = []
        for lib in (real, torch):
            xt = lib.tensor(a, requires_grad=True)
            tt = lib.tensor(b, requires_grad=True)
            loss = lib.nn.functional.mse_loss(xt, tt)
            (loss * 0.3).backward()
            outs.append((loss.item(), xt.grad.numpy().tobytes(), tt.grad.numpy().tobytes()))
        assert outs[0] == outs[1], shape


def test_the_linear_regression_golden_prints_every_digit_as_pytorch():
    """tut_74 (nn.Linear(1, 1), MSELoss, SGD with momentum) prints ``loss.item()`` and the gradients
    at full precision; the golden test compares numbers within a tolerance, this one exactly."""
    import contextlib
    import io
    import json
    import pathlib

    golden = pathlib.Path(__file__).parent / "golden"
    expected = json.loads((golden / "expected.json").read_text())["tut_74_linreg_loss_item"]["stdout"]
    source = (golden / "snippets" / "tut_74_linreg_loss_item.py").read_text()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source.replace("import torch.nn as nn", "import autograd_py.nn as nn")
                     .replace("import torch\n", "import autograd_py as torch\n"), "tut_74", "exec"), {})
    assert out.getvalue().split("\n") == expected


def test_binary_cross_entropy_gradient_in_atens_order():
    # grad * (x - t) / max((1 - x) * x, eps), then / numel; read off PyTorch 2.13
    x = ((np.arange(8) * 7 % 11 - 5) / 2.3).astype(np.float32)
    p = torch.tensor((1 / (1 + np.exp(-x))).astype(np.float32), requires_grad=True)
    loss = F.binary_cross_entropy(p, torch.tensor(((np.arange(8) % 3) / 2).astype(np.float32)))
    (loss * 0.3).backward()
    assert loss.item() == 1.1561155319213867
    assert p.grad.tolist() == [0.041764937341213226, 0.0368763729929924, -0.12697026133537292, 0.36722323298454285,
                               0.01682290993630886, -0.1756981909275055, 0.2509647011756897, 0.0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_bce_and_smooth_l1_gradients_match_torch_bit_for_bit(dtype):
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(6)
    for _ in range(40):
        n = int(rng.integers(2, 300))
        p = (1 / (1 + np.exp(-rng.standard_normal(n)))).astype(dtype)
        t, w = rng.random(n).astype(dtype), rng.random(n).astype(dtype)
        grads = []
        for lib in (real, torch):
            x = lib.tensor(p, requires_grad=True)
            y = lib.tensor(p * 2, requires_grad=True)
            F_ = lib.nn.functional
            (F_.binary_cross_entropy(x, lib.tensor(t), weight=lib.tensor(w)) * 0.7).backward()
            (F_.smooth_l1_loss(y, lib.tensor(t)) * 0.7).backward()
            grads.append((x.grad.numpy().tobytes(), y.grad.numpy().tobytes()))
        assert grads[0] == grads[1], n


def test_bce_with_logits_takes_log_sigmoids_kernel():
    # PyTorch 2.13: (1 - y) * x - log_sigmoid(x), whose Vectorized kernel takes SLEEF's exp; NumPy's
    # float32 exp and log1p gave other last digits in 8 of these 40 values, and in their mean
    i = np.arange(40)
    x = torch.tensor(((i * 31 % 41 - 20) / 7).astype(np.float32))
    y = torch.tensor((i % 3 == 0).astype(np.float32))
    per_value = F.binary_cross_entropy_with_logits(x, y, reduction="none")
    assert per_value[:8].tolist() == [2.9129867553710938, 1.7601861953735352, 0.767124593257904,
                                      1.529799461364746, 0.06414985656738281, 1.8798784017562866,
                                      0.5604596138000488, 0.27680301666259766]
    assert F.binary_cross_entropy_with_logits(x, y).item() == 1.075048565864563
