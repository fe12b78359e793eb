"""tril/triu (functions, methods, in-place forms) and meshgrid, against PyTorch 2.13's behaviour:
values, grad_fn names and saved diagonals, in-place history, error messages and meshgrid's warning."""
import warnings

import numpy as np
import pytest

import autograd_py as T


def test_tril_triu_values_and_gradients():
    x = T.arange(12.).reshape(3, 4).requires_grad_()
    assert T.tril(x).tolist() == [[0, 0, 0, 0], [4, 5, 0, 0], [8, 9, 10, 0]]
    assert x.triu(1).tolist() == [[0, 1, 2, 3], [0, 0, 6, 7], [0, 0, 0, 11]]
    assert T.triu(x, diagonal=-1).tolist() == [[0, 1, 2, 3], [4, 5, 6, 7], [0, 9, 10, 11]]
    y = x.tril(1)
    assert type(y.grad_fn).__name__ == "TrilBackward0" and y.grad_fn._saved_diagonal == 1
    assert type(x.triu().grad_fn).__name__ == "TriuBackward0"
    (y * T.arange(12.).reshape(3, 4)).sum().backward()
    assert x.grad.tolist() == [[0, 1, 0, 0], [4, 5, 6, 0], [8, 9, 10, 11]]


def test_batched_and_integer_inputs():
    b = T.ones(2, 3, 3, dtype=T.int64).triu()
    assert b.dtype == T.int64 and b[1].tolist() == [[1, 1, 1], [0, 1, 1], [0, 0, 1]]
    mask = T.tril(T.ones(3, 3)) == 0
    assert mask.tolist() == [[False, True, True], [False, False, True], [False, False, False]]


def test_in_place_forms_record_their_backward():
    x = T.arange(6.).reshape(2, 3).requires_grad_()
    y = x * 2
    version = y._version
    assert y.tril_() is y
    assert y._version == version + 1 and type(y.grad_fn).__name__ == "TrilBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [[2, 0, 0], [2, 2, 0]]
    z = T.ones(3, 3)
    z.triu_(diagonal=2)
    assert z.tolist() == [[0, 0, 1], [0, 0, 0], [0, 0, 0]]


def test_gradient_of_gradient_is_the_same_triangle():
    x = T.tensor(np.random.default_rng(0).uniform(-1, 1, (3, 3)), requires_grad=True)
    g, = T.autograd.grad((x.tril() ** 2).sum(), x, create_graph=True)
    h, = T.autograd.grad(g.sum(), x)
    np.testing.assert_array_equal(h._data, np.tril(np.full((3, 3), 2.0)))


@pytest.mark.parametrize("call", [lambda: T.tril(T.ones(3)), lambda: T.ones(3).tril_()])
def test_tril_needs_two_dims(call):
    with pytest.raises(RuntimeError, match="^tril: input tensor must have at least 2 dimensions$"):
        call()


def test_meshgrid_ij_xy_and_gradients():
    a = T.tensor([1., 2., 3.], requires_grad=True)
    b = T.tensor([4., 5.])
    X, Y = T.meshgrid(a, b, indexing="ij")
    assert X.tolist() == [[1, 1], [2, 2], [3, 3]] and Y.tolist() == [[4, 5], [4, 5], [4, 5]]
    assert type(X.grad_fn).__name__ == "ExpandBackward0"
    assert type(X.grad_fn.next_functions[0][0]).__name__ == "ViewBackward0"
    X, Y = T.meshgrid([a, b], indexing="xy")
    assert X.shape == (2, 3) and X.tolist() == [[1, 2, 3], [1, 2, 3]] and Y.tolist() == [[4, 4, 4], [5, 5, 5]]
    (X * Y).sum().backward()
    assert a.grad.tolist() == [9, 9, 9]
    assert [g.shape for g in T.meshgrid(T.tensor(1.), b, indexing="ij")] == [(1, 2), (1, 2)]


def test_meshgrid_warning_and_errors():
    from autograd_py import _warn
    message = T.ops.triangles._MESHGRID_WARNING
    _warn._seen.discard(message)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            T.meshgrid(T.ones(2), T.ones(3))
            T.meshgrid(T.ones(2), T.ones(3))
    finally:
        # once per process, as PyTorch's: leave it unseen for the goldens that expect it
        _warn._seen.discard(message)
    assert [str(w.message) for w in caught] == [
        "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument. "
        "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4215.)"]
    with pytest.raises(RuntimeError, match='^torch.meshgrid: indexing must be one of "xy" or "ij", but received: ab$'):
        T.meshgrid(T.ones(2), indexing="ab")
    with pytest.raises(RuntimeError, match="^meshgrid expects all tensors to have the same dtype$"):
        T.meshgrid(T.ones(2), T.ones(2, dtype=T.float64), indexing="ij")


def test_tril_and_triu_indices():
    assert T.tril_indices(3, 3).tolist() == [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]
    assert T.tril_indices(3, 4, -1).tolist() == [[1, 2, 2], [0, 0, 1]]
    idx = T.triu_indices(2, 5, 2, dtype=T.int32)
    assert idx.dtype == T.int32 and idx.tolist() == [[0, 0, 0, 1, 1], [2, 3, 4, 3, 4]]
    assert T.triu_indices(4, 4, 1).dtype == T.int64
    with pytest.raises(RuntimeError, match="^row must be non-negative, got-1$"):
        T.tril_indices(-1, 3)
