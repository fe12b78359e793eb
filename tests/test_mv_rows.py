"""MvBackward0 on NumPy data hands the vector its gradient straight from vector_product (ops/linalg.py);
it gives what the formula on Tensors (create_graph=True) gives, bit for bit, float32's sgemv order
included, and a matrix that requires grad still takes the general formula."""
import numpy as np
import pytest

import autograd_py as T

import numpy_path_spy


@pytest.fixture
def on_arrays(monkeypatch):
    return numpy_path_spy.record(monkeypatch)


@pytest.mark.parametrize("dtype", [T.float32, T.float64])
@pytest.mark.parametrize("shape", [(1, 1), (3, 2), (2, 11), (5, 4), (64, 64), (7, 300)])
@pytest.mark.parametrize("matrix_grad", [False, True])
def test_both_paths_give_the_same_gradients(on_arrays, dtype, shape, matrix_grad):
    rng = np.random.default_rng(sum(shape))
    m_data, x_data, w = rng.standard_normal(shape), rng.standard_normal(shape[1]), rng.standard_normal(shape[0])
    results = []
    for create_graph in (False, True):
        on_arrays.clear()
        m = T.tensor(m_data, dtype=dtype, requires_grad=matrix_grad)
        x = T.tensor(x_data, dtype=dtype, requires_grad=True)
        seen = []
        y = T.mv(m, x)
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(grad_inputs))
        inputs = (m, x) if matrix_grad else (x,)
        grads = T.autograd.grad(y, inputs, T.tensor(w, dtype=dtype), create_graph=create_graph)
        assert ("MvBackward0" in on_arrays) != create_graph
        assert (seen[0][0] is None) != matrix_grad
        results.append(grads)
    for a, b in zip(*results):
        assert a.dtype == b.dtype and a._data.strides == b._data.strides
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
