"""``autograd.functional.jacobian`` hands a 1-D input's batched gradients on without reshaping
them to the shape they already have (functional.py); the blocks are what reshaping them, as
the general path does, and detaching gives: values, shape, strides and flags."""
import numpy as np
import pytest

import autograd_py as T
from autograd_py import grad_mode
from autograd_py.autograd import batched, functional

A = T.tensor(np.arange(12.0).reshape(3, 4) / 5)


FUNCS = {
    "mv": (lambda v: T.tanh(A @ v), (4,)),
    "transposed": (lambda v: (v.unsqueeze(0) * A).t().sum(1), (4,)),
    "matrix_out": (lambda v: (A * v).sin(), (4,)),
    "matrix_in": (lambda m: (m * m).sum(1), (2, 3)),
    "scalar_in": (lambda s: A.sum(0) * s, ()),
    "scalar_out": (lambda v: (v * v).sum(), (4,)),
    "sliced_grad": (lambda v: T.cat([v, A.sum(0)]), (4,)),  # v's gradients: a column slice of the batch
}


def _reference(func, x):
    """The blocks as reshaping each input's batched gradients twice, then detaching, gives them."""
    with grad_mode.enable_grad():
        (leaf,) = functional._prepare((x,), False)
        out = func(leaf)
        n = out._data.size
        eye = T.tensor(np.eye(n).reshape((n,) + out._data.shape))
        (g,) = batched.batched_vjp(out, (leaf,), eye)
    return g.reshape(n, -1).reshape(out._data.shape + x._data.shape).detach()


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_vectorized_blocks_match_the_reshaped_gradients(name):
    func, shape = FUNCS[name]
    x = T.tensor(np.linspace(-1, 1, int(np.prod(shape))).reshape(shape))
    got = T.autograd.functional.jacobian(func, x, vectorize=True)
    want = _reference(func, x)
    assert got.shape == want.shape and got.stride() == want.stride()
    assert got.is_contiguous() == want.is_contiguous() and got.dtype == want.dtype
    assert not got.requires_grad and got.grad_fn is None and got._base is None
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    np.testing.assert_array_equal(got.numpy(), T.autograd.functional.jacobian(func, x).numpy())


def test_create_graph_keeps_the_recorded_view():
    x = T.tensor([0.5, -1.0, 2.0, 0.25], dtype=T.float64, requires_grad=True)
    J = T.autograd.functional.jacobian(FUNCS["mv"][0], x, create_graph=True, vectorize=True)
    assert J.requires_grad and J.grad_fn is not None
    assert type(J.grad_fn).__name__ == "ViewBackward0"
