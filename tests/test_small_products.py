"""Small float32 matrix products add their terms in the order PyTorch's MKL build adds them
(``ops/small_products.py``): one after another, each product rounded, no fused multiply-add; so do
matrix-vector products (``mv``, and ``matmul`` of a 2-D and a 1-D tensor) in sgemv's measured region."""
import numpy as np
import pytest

import autograd_py as torch
from autograd_py.ops.small_products import product, vector_product


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


def test_matrix_vector_products_add_their_terms_one_after_another():
    a = np.array([[0.1, 0.2, 0.3, 0.7], [1.3, -0.6, 2.2, 0.9]], np.float32)
    v = np.array([1.1, -2.0, 0.3, 0.125], np.float32)
    expected = np.zeros(2, np.float32)
    for k in range(4):
        expected = expected + a[:, k] * v[k]  # float32 at each step
    assert vector_product(a, v).tobytes() == expected.tobytes()
    assert vector_product(a.astype(np.float64), v.astype(np.float64)).tobytes() == (a.astype(np.float64) @ v).tobytes()


def test_d2l_synthetic_data_reads_off_pytorch():
    # d2l's synthetic_data: y = torch.matmul(X, w) + b with w = [2, -3.4] is an mv of an (n, 2) matrix
    i = np.arange(64).reshape(32, 2)
    X = torch.tensor(((i * 37) % 101 - 50) / 13, dtype=torch.float32)
    y = torch.matmul(X, torch.tensor([2, -3.4]))
    expected = [-4.292307376861572, 14.153846740722656, -9.353846549987793, -6.4461541175842285, 12.0,
                14.907691955566406, -8.600000381469727, -5.692307472229004, 12.753846168518066,
                -10.753846168518066, -7.84615421295166, -4.9384613037109375, 13.507692337036133,
                -10.000000953674316, -7.092308044433594, 11.353846549987793, 14.261539459228516,
                -9.246153831481934, -6.338461875915527, 12.10769271850586, 15.015384674072266,
                -8.492307662963867, -5.584615230560303, 12.861539840698242, -10.646154403686523,
                -7.738461494445801, -4.8307695388793945, 13.615385055541992, -9.892308235168457,
                -6.984615325927734, 11.461538314819336, 14.369230270385742]
    assert y.tolist() == expected  # NumPy's sgemv differs in 5 of them
    with torch.no_grad():
        assert torch.matmul(X, torch.tensor([2, -3.4])).tolist() == expected
    # a transposed matrix (mv's backward, self.t().mv(grad)) adds column after column
    W = torch.tensor(np.arange(12).reshape(3, 4) / 7 - 0.6, dtype=torch.float32)
    assert torch.mv(W.t(), torch.tensor([0.3, -1.1, 0.7])).tolist() == [
        0.2314285933971405, 0.21714287996292114, 0.20285707712173462, 0.18857139348983765]


@pytest.mark.parametrize("layout", ["C", "F"])
def test_matrix_vector_products_in_the_measured_shapes_match_torch(layout):
    real = pytest.importorskip("torch")
    from autograd_py.ops.small_products import _gemv_sequential
    rng = np.random.default_rng(12)
    cases = 0
    for m in (1, 2, 3, 7, 100, 500):
        for k in (2, 3, 4, 5, 11, 12, 64):
            a, v = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal(k).astype(np.float32)
            ta = real.tensor(a) if layout == "C" else real.tensor(a.T.copy()).T
            oa = torch.tensor(a) if layout == "C" else torch.tensor(a.T.copy()).t()
            claimed = _gemv_sequential(m, k, layout)
            assert real.mv(ta, real.tensor(v)).numpy().tobytes() == torch.mv(oa, torch.tensor(v)).numpy().tobytes() \
                or not claimed, (m, k)
            cases += claimed
    assert cases >= 15


def test_without_blas_the_fused_multiply_adds_are_spelled_out(monkeypatch):
    # Pyodide's NumPy has no BLAS and adds rounded products; OpenBLAS, like MKL outside the region
    # above, fuses each multiply-add: spelled out, the browser's product is this machine's
    from autograd_py.ops import small_products
    monkeypatch.setattr(small_products, "_NO_BLAS", True)
    rng = np.random.default_rng(5)
    a = rng.standard_normal((4, 6)).astype(np.float32)
    w = rng.standard_normal((8, 6)).astype(np.float32)
    b = w.T  # a layer's forward, x @ W.t(): outside the sequential region (8 columns, inner size 6)
    fused = small_products.product(a, b)
    assert fused.tobytes() == (a @ b).tobytes() and fused.flags.c_contiguous
    rounded_terms = np.add.accumulate(a[:, :, None] * b[None, :, :], axis=1)[:, -1, :]
    assert (fused != rounded_terms).any()  # what NumPy's loops without BLAS would give


def _rounded_in_turn(a, b):
    """What NumPy's matmul loop without BLAS gives (Pyodide's): each output's terms added one
    after another over the inner index, the product and each sum rounded to the dtype."""
    out = np.zeros((a.shape[0], b.shape[1]), a.dtype)
    for k in range(a.shape[1]):
        out = out + a[:, k:k + 1] * b[k:k + 1, :]
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_by_rows_adds_as_numpy_without_blas_does(dtype):
    """Pyodide's large products go through ``by_rows`` (einsum along the rows of ``b``), which must
    add the terms in the order and rounding of NumPy's own matmul loop there; BLAS does not."""
    from autograd_py.ops.small_products import by_rows
    rng = np.random.default_rng(3)
    for m, k, n, layouts in [(64, 80, 96, "CC"), (3, 200, 64, "FC"), (70, 33, 65, "CF"), (1, 300, 70, "FF")]:
        a = rng.standard_normal((m, k)).astype(dtype)
        b = rng.standard_normal((k, n)).astype(dtype) * dtype(1e3)
        a.flat[:4] = [np.inf, -0.0, np.nan, dtype(1e-39 if dtype is np.float32 else 1e-310)]  # specials
        b.flat[5] = -np.inf
        a = np.asfortranarray(a) if layouts[0] == "F" else a
        b = np.asfortranarray(b) if layouts[1] == "F" else b
        got = by_rows(a, b)
        assert got.dtype == dtype and got.flags.c_contiguous
        assert got.tobytes() == _rounded_in_turn(a, b).tobytes(), (m, k, n, layouts)
    # (BLAS adds in blocks with fused multiply-adds: a test that could not tell them apart proves nothing)
    a, b = rng.standard_normal((64, 80)).astype(dtype), rng.standard_normal((80, 96)).astype(dtype)
    assert (a @ b).tobytes() != _rounded_in_turn(a, b).tobytes()


def test_without_blas_large_products_go_by_rows(monkeypatch):
    from autograd_py.ops import small_products
    monkeypatch.setattr(small_products, "_NO_BLAS", True)
    calls = []
    monkeypatch.setattr(small_products, "by_rows", lambda a, b: calls.append(a.shape + b.shape[1:]) or a @ b)
    rng = np.random.default_rng(4)
    for shape in [(64, 784, 128), (1, 784, 128), (64, 128, 10), (16, 64, 64)]:
        m, k, n = shape
        small_products.product(rng.standard_normal((m, k)).astype(np.float32),
                               rng.standard_normal((k, n)).astype(np.float32))
    assert calls == [(64, 784, 128), (1, 784, 128)]  # 10 columns, or 65,536 terms: NumPy's own loop


def test_fused_in_turn_rounds_each_term_once_ties_included():
    """Pyodide's spelled-out fused multiply-adds run two NumPy calls a term and look for float64
    sums half-way between two float32 once at the end (their float32 rounding would be a second
    rounding); from the first such step they go through ``fma32``. The same bits as ``fma32``
    term after term, on operands with few mantissa bits, where such ties are common."""
    from autograd_py._fp import fma32, half_way32
    from autograd_py.ops.small_products import fused_in_turn
    rng = np.random.default_rng(8)
    at_ties = 0
    for trial in range(60):
        m, k, n = int(rng.integers(1, 12)), int(rng.integers(2, 60)), int(rng.integers(1, 12))
        if trial % 2:  # integers and their multiples of 2**12: sums land on float32 half-way points
            a = rng.integers(-2000, 2000, (m, k)).astype(np.float32)
            b = (rng.integers(-2000, 2000, (k, n)) * 4096).astype(np.float32)
        else:
            a, b = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
        expected = a[:, :1] * b[:1, :]
        for j in range(1, k):
            s = a[:, j:j + 1].astype(np.float64) * b[j:j + 1, :] + expected
            at_ties += int(half_way32(s).sum())
            expected = fma32(a[:, j:j + 1], b[j:j + 1, :], expected)
        got = fused_in_turn(a, b)
        assert got.tobytes() == np.ascontiguousarray(expected).tobytes() and got.flags.c_contiguous, (m, k, n)
    assert at_ties > 20  # (the slow path was taken)
    # A tie that rounding twice gets wrong: (1 + 2**-23) + 2**-24 * (1 - 2**-46) lies just below the
    # half-way point 1 + 2**-23 + 2**-24, but in float64 it is that point, which float32 rounds up
    one_up = np.float32(1 + 2.0 ** -23)
    a = np.array([[one_up, np.float32(2.0 ** -12 * (1 - 2.0 ** -23))]], np.float32)
    b = np.array([[1.0], [np.float32(2.0 ** -12 * (1 + 2.0 ** -23))]], np.float32)
    assert fused_in_turn(a, b)[0, 0] == one_up
    assert np.float32(np.float64(one_up) + np.float64(a[0, 1]) * np.float64(b[1, 0])) != one_up


@pytest.mark.parametrize("no_blas", [False, True])
def test_a_batch_adds_each_matrix_as_product_does(monkeypatch, no_blas):
    # PyTorch's bmm (and batched matmul, einsum) gives each matrix of a batch mm's bits
    from autograd_py.ops import small_products
    monkeypatch.setattr(small_products, "_NO_BLAS", no_blas)
    rng = np.random.default_rng(9)
    for (m, k, n) in [(4, 5, 3), (2, 9, 12), (1, 7, 3), (16, 16, 16)]:
        a = rng.standard_normal((2, 3, m, k)).astype(np.float32)
        b = rng.standard_normal((3, k, n)).astype(np.float32)  # batch dims broadcast
        b_t = np.ascontiguousarray(b.swapaxes(1, 2)).swapaxes(1, 2)  # each matrix a transposed view
        for right in (b, b_t):
            got = small_products.batched_product(a, right)
            assert got.shape == (2, 3, m, n)
            for i in range(2):
                for j in range(3):
                    assert got[i, j].tobytes() == small_products.product(a[i, j], right[j]).tobytes()
    x64 = rng.standard_normal((2, 3, 4))
    assert small_products.batched_product(x64, x64.swapaxes(1, 2)).tobytes() == np.matmul(x64, x64.swapaxes(1, 2)).tobytes()


def test_bmm_and_einsum_match_torch_matrix_by_matrix():
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(10)
    for (b, m, k, n) in [(1, 4, 5, 3), (3, 8, 16, 4), (2, 3, 4, 8), (6, 3, 3, 3)]:
        x, y = rng.standard_normal((b, m, k)).astype(np.float32), rng.standard_normal((b, k, n)).astype(np.float32)
        expected = real.bmm(real.tensor(x), real.tensor(y)).numpy().tobytes()
        assert torch.bmm(torch.tensor(x), torch.tensor(y)).numpy().tobytes() == expected, (b, m, k, n)
        assert torch.einsum("bij,bjk->bik", torch.tensor(x), torch.tensor(y)).numpy().tobytes() == expected
        assert (torch.tensor(x) @ torch.tensor(y)).numpy().tobytes() == expected
