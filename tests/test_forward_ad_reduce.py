"""Nested forward mode through the reductions, products, softmax, sorting and selections: the
Hessian by jacfwd(jacfwd(f)) (every JVP run on dual tangents) against jacfwd(jacrev(f)) (JVPs of
the backward formulas) and against entries PyTorch 2.13 gives (every fifth, rounded to 1e-6)."""
import numpy as np
import pytest

import autograd_py as T
from autograd_py.func import jacfwd, jacrev

D = T.float64
X = T.tensor([[0.5, -1.0, 2.0], [1.5, 0.3, -0.7]], dtype=D)
W = T.tensor([[1.0, 2.0], [0.5, -1.0], [2.0, 0.1]], dtype=D)
ZEROS = T.tensor([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]], dtype=D)

CASES = {
    "softmax": (lambda a: a.softmax(1)[:, 0].sum(), [0.093882, 0, 0, 0, 0, 0, 0, -0.046853]),
    "var_std": (lambda a: a.var(1).sum() + a.std(),
                [0.807889, -0.026423, -0.032928, -0.069026, -0.069026, -0.032928, -0.026423, 0.776669]),
    "norm": (lambda a: a.norm() + a.norm(p=3, dim=1).sum(),
             [0.566782, 0.015239, 0.013062, -0.130618, -0.130618, 0.013062, 0.015239, 0.857827]),
    "max_amax": (lambda a: a.max(1).values.pow(2).sum() + a.amax() ** 2, [0.0] * 8),
    "sort": (lambda a: (a.sort(1).values * T.arange(3, dtype=D)).pow(2).sum(), [2.0] + [0.0] * 7),
    "prod_zero": (lambda a: (a * ZEROS).prod(), None),
    "log_softmax": (lambda a: a.log_softmax(0).mul(a).sum(), None),
    "logsumexp": (lambda a: a.logsumexp(1).sum(), None),
    "mm_mv": (lambda a: (a @ W).pow(2).sum() + T.mv(a, a[0]).sum(), None),
    "cumprod": (lambda a: a.cumprod(1).sum(), None),
    "clamp_maximum": (lambda a: a.clamp(-0.5, 1.0).pow(3).sum() + T.maximum(a, a.flip(0)).pow(2).sum(), None),
    "lerp_addcdiv": (lambda a: T.lerp(a, a * a, a.sigmoid()).sum() + T.addcdiv(a, a, a.exp()).sum(), None),
}


@pytest.mark.parametrize("name", list(CASES))
def test_hessian_forward_over_forward(name):
    f, torch_entries = CASES[name]
    h_ff = jacfwd(jacfwd(f))(X).numpy()
    h_fr = jacfwd(jacrev(f))(X).numpy()
    np.testing.assert_allclose(h_ff, h_fr, rtol=1e-10, atol=1e-12)
    if torch_entries is not None:
        np.testing.assert_allclose(h_ff.reshape(-1)[::5], torch_entries, atol=1e-6)
