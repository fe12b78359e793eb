"""Small float32 matrix products add their terms in the order PyTorch's MKL build adds them
(``ops/small_products.py``): one after another, each product rounded, no fused multiply-add."""
import numpy as np
import pytest

import autograd_py as torch
from autograd_py.ops.small_products import product


def test_small_products_add_their_terms_one_after_another():
    a = np.array([[0.1, 0.2, 0.3, 0.7]], np.float32)
    b = np.array([[1.1, -2.0], [0.3, 0.5], [3.0, 0.25], [-1.5, 0.125]], np.float32)
    expected = np.zeros((1, 2), np.float32)
    for k in range(4):
        expected = expected + a[:, k:k + 1] * b[k:k + 1, :]  # float32 at each step
    assert product(a, b).tobytes() == expected.tobytes()
    assert product(a.astype(np.float64), b.astype(np.float64)).tobytes() == (a.astype(np.float64) @ b).tobytes()


def test_a_linear_layers_gradients_read_off_pytorch():
    x = torch.tensor([[0.5, -1.25, 2.0], [1.5, 0.75, -0.5], [0.1, 0.2, 0.3], [-2.0, 1.0, 0.6]], requires_grad=True)
    w = torch.tensor([[0.3, -0.7, 1.1], [0.9, 0.05, -0.4]], requires_grad=True)
    y = torch.nn.functional.linear(x, w)
    (y * torch.tensor([[1.0, 2.0], [0.5, -1.0], [3.0, 0.25], [-0.5, 1.5]])).sum().backward()
    assert y.tolist() == [[3.2249999046325684, -0.4125000238418579], [-0.625, 1.587499976158142],
                          [0.2200000137090683, -0.02000001072883606], [-0.6399999260902405, -1.9900000095367432]]
    assert w.grad.tolist() == [[2.549999952316284, -0.7749999761581421, 2.3500001430511475],
                               [-3.4749999046325684, -1.7000000476837158, 5.474999904632568]]


@pytest.mark.parametrize("layouts", ["CC", "FC", "FF", "CF"])
def test_products_in_the_measured_shapes_match_torch(layouts):
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(11)
    cases = 0
    for m in (1, 2, 5, 64):
        for n in (1, 2, 3, 4, 8):
            for k in (2, 3, 5, 16):
                a, b = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
                ta = real.tensor(a) if layouts[0] == "C" else real.tensor(a.T.copy()).T
                tb = real.tensor(b) if layouts[1] == "C" else real.tensor(b.T.copy()).T
                oa = torch.tensor(a) if layouts[0] == "C" else torch.tensor(a.T.copy()).t()
                ob = torch.tensor(b) if layouts[1] == "C" else torch.tensor(b.T.copy()).t()
                assert (ta @ tb).numpy().tobytes() == (oa @ ob).numpy().tobytes() or not _claimed(m, k, n, layouts), (m, k, n)
                cases += _claimed(m, k, n, layouts)
    assert cases >= 20


def _claimed(m, k, n, layouts):
    from autograd_py.ops.small_products import _sequential
    return k >= 2 and _sequential(m, k, n, layouts)
