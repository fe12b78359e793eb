"""A vectorized Jacobian's diagonal batch of gradients times a matrix (MvBackward0's batched
backward) scales the matrix's rows instead of multiplying (ops/linalg.py ``_diagonal_times``, on
in Pyodide, whose NumPy has no optimised BLAS, and here for these tests); it gives matmul's bytes,
signed zeros included, and steps aside where it could not."""
import numpy as np
import pytest

import autograd_py as T
from autograd_py.ops import linalg


@pytest.fixture(autouse=True)
def scaling_on(monkeypatch):
    monkeypatch.setattr(linalg, "_SCALE_DIAGONALS", [True])


def _product(g, a):
    return linalg.matmul(T.tensor(g), T.tensor(a))._data


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n, k", [(2, 2), (3, 5), (8, 8), (16, 3), (64, 64), (40, 120)])
def test_random_diagonals_give_matmuls_bytes(dtype, n, k):
    rng = np.random.default_rng(n * 1000 + k)
    for _ in range(5):
        d = rng.standard_normal(n).astype(dtype) * np.exp(rng.uniform(-20, 20, n)).astype(dtype)
        a = (rng.standard_normal((n, k)) * np.exp(rng.uniform(-20, 20, (n, k)))).astype(dtype)
        g = np.diag(d).astype(dtype)
        got = linalg._diagonal_times(T.tensor(g), T.tensor(a))
        assert got is not None
        want = _product(g, a)
        assert got._data.tobytes() == want.tobytes() and got._data.strides == want.strides


def _cases():
    g = np.diag([1.5, -2.0, 0.25])
    a = np.arange(1.0, 13.0).reshape(3, 4)
    zero_d = g.copy(); zero_d[1, 1] = 0.0
    neg_zero = a.copy(); neg_zero[0, 0] = -0.0
    inf_a = a.copy(); inf_a[2, 3] = np.inf
    nan_d = g.copy(); nan_d[0, 0] = np.nan
    off = g.copy(); off[0, 2] = 1e-300
    off_nan = g.copy(); off_nan[2, 0] = np.nan
    tiny = g * 1e-200; tiny_a = a * 1e-200  # products underflow to zero
    huge = g * 1e300; huge_a = a * 1e300  # products overflow
    return {"zero on the diagonal": (zero_d, a), "negative zero in m": (g, neg_zero), "inf in m": (g, inf_a),
            "NaN on the diagonal": (nan_d, a), "an entry off the diagonal": (off, a), "NaN off it": (off_nan, a),
            "underflow": (tiny, tiny_a), "overflow": (huge, huge_a)}


@pytest.mark.parametrize("name", sorted(_cases()))
def test_it_steps_aside_where_the_bytes_could_differ(name):
    g, a = _cases()[name]
    assert linalg._diagonal_times(T.tensor(g), T.tensor(a)) is None


def test_not_square_not_contiguous_or_other_dtypes_step_aside():
    a = np.arange(1.0, 13.0).reshape(3, 4)
    assert linalg._diagonal_times(T.tensor(np.eye(3)[:2]), T.tensor(a[:2])) is None
    assert linalg._diagonal_times(T.tensor(np.diag([1.0, 2.0, 3.0]).T.copy(order="F")), T.tensor(a)) is None
    assert linalg._diagonal_times(T.tensor(np.diag([1.0, 2.0, 3.0]), dtype=T.float32), T.tensor(a)) is None
    assert linalg._diagonal_times(T.tensor(np.eye(3), requires_grad=True), T.tensor(a)) is None


@pytest.mark.parametrize("dtype", [T.float32, T.float64])
def test_vectorized_jacobians_match_the_product(monkeypatch, dtype):
    rng = np.random.default_rng(3)
    W = T.tensor(rng.standard_normal((64, 48)) / 7, dtype=dtype)
    x = T.tensor(rng.standard_normal(48), dtype=dtype)
    inf_W = T.tensor(np.where(np.arange(64 * 48).reshape(64, 48) == 100, np.inf, W.numpy()), dtype=dtype)
    funcs = [lambda v: T.tanh(W @ v), lambda v: W @ v.sin(), lambda v: (W @ v) * 0.0, lambda v: W.t() @ (W @ v),
             lambda v: inf_W @ v.sin()]
    scaled = []
    original = linalg._diagonal_times
    monkeypatch.setattr(linalg, "_diagonal_times", lambda grad, m: scaled.append(original(grad, m)) or scaled[-1])
    fast = [T.autograd.functional.jacobian(f, x, vectorize=True) for f in funcs]
    assert sum(r is not None for r in scaled) == 3  # tanh's, sin's and the inner product's rows (not the zeros)
    monkeypatch.setattr(linalg, "_diagonal_times", lambda grad, m: None)
    for f, got in zip(funcs, fast):
        want = T.autograd.functional.jacobian(f, x, vectorize=True)
        assert got._data.tobytes() == want._data.tobytes() and got.stride() == want.stride()
