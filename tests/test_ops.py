"""Every row of ``op_table.OPS``: forward against NumPy, result dtypes, and gradients against
finite differences (``gradcheck``), plus second order for the rows marked ``gradgrad``."""
import zlib

import numpy as np
import pytest

import autograd_py as T
from autograd_py.autograd import gradcheck, gradgradcheck
from autograd_py.autograd.gradcheck import GradcheckError
from op_table import OPS, PROMOTION, shape_id

CASES = [pytest.param(row, shapes, id=f"{row.name}-{shape_id(shapes)}") for row in OPS for _, shapes in row.samples()]
TOLERANCE = {"float32": dict(rtol=2e-5, atol=1e-6), "float64": dict(rtol=1e-10, atol=1e-12)}


def _arrays(row, shapes):
    # Seeded by the case id, so every run and every test sees the same inputs for a case.
    rng = np.random.default_rng(zlib.crc32(f"{row.name}-{shape_id(shapes)}".encode()))
    return row.make_inputs(rng, shapes)


def _as_list(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


def _tensors(arrays, dtype, requires_grad=False):
    return [T.tensor(a, dtype=dtype, requires_grad=requires_grad) for a in arrays]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("row, shapes", CASES)
def test_forward_matches_numpy(row, shapes, dtype):
    arrays = [a.astype(dtype) for a in _arrays(row, shapes)]
    outs = _as_list(row.op(T, *_tensors(arrays, getattr(T, dtype))))
    refs = _as_list(row.ref(*[a.astype(np.float64) for a in arrays]))
    assert len(outs) == len(refs)
    for out, ref in zip(outs, refs):
        ref = np.asarray(ref)
        assert isinstance(out, T.Tensor)
        assert tuple(out.shape) == ref.shape
        if ref.dtype.kind in "iub":
            np.testing.assert_array_equal(out.numpy(), ref)
            assert out.dtype == T.int64
        else:
            np.testing.assert_allclose(out.numpy(), ref, **TOLERANCE[dtype])
            assert out.dtype == getattr(T, row.result_dtype or dtype)


@pytest.mark.parametrize("row, shapes", CASES)
def test_forward_records_graph_only_when_needed(row, shapes):
    # float32, so that to(float64) is a real conversion rather than returning its input
    arrays = _arrays(row, shapes)
    plain = _as_list(row.op(T, *_tensors(arrays, T.float32)))
    assert all(o.grad_fn is None and not o.requires_grad for o in plain)
    with T.no_grad():
        quiet = _as_list(row.op(T, *_tensors(arrays, T.float32, requires_grad=True)))
    # As in PyTorch, a view made under no_grad of a tensor that requires grad requires grad too.
    assert all(o.grad_fn is None and o.requires_grad == (o._base is not None and o._base.requires_grad)
               for o in quiet)
    tracked = _as_list(row.op(T, *_tensors(arrays, T.float32, requires_grad=True)))
    for o in tracked:
        floating = o.dtype.is_floating_point
        assert o.requires_grad == floating
        assert (o.grad_fn is not None) == floating


@pytest.mark.parametrize("row, shapes", [c for c in CASES if c.values[0].gradcheck])
def test_gradcheck(row, shapes):
    inputs = _tensors(_arrays(row, shapes), T.float64, requires_grad=True)
    assert gradcheck(lambda *xs: row.op(T, *xs), inputs)


@pytest.mark.parametrize("row, shapes", [c for c in CASES if c.values[0].gradcheck])
def test_forward_ad_gradcheck(row, shapes):
    # Forward mode's Jacobian (one JVP per input element) against finite differences; the
    # inputs need not require grad, since tangents flow without a backward graph.
    inputs = _tensors(_arrays(row, shapes), T.float64, requires_grad=True)
    assert gradcheck(lambda *xs: row.op(T, *xs), inputs, check_forward_ad=True, check_backward_ad=False)


@pytest.mark.parametrize("row, shapes", [c for c in CASES if c.values[0].gradcheck])
def test_forward_jacobian_is_the_transpose_of_the_reverse_one(row, shapes):
    # One JVP per input element against one VJP per output element: the same matrix, to rounding.
    from autograd_py.autograd.gradcheck import _analytical, _forward_analytical, _outputs
    inputs = _tensors(_arrays(row, shapes), T.float64, requires_grad=True)

    def f(*xs):
        return row.op(T, *xs)
    outputs = _outputs(f, inputs)
    for o, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        for i in range(len(inputs)):
            np.testing.assert_allclose(_forward_analytical(f, inputs, i, o), _analytical(outputs, inputs, i, o),
                                       rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("row, shapes", [c for c in CASES if c.values[0].gradgrad])
def test_gradgradcheck(row, shapes):
    inputs = _tensors(_arrays(row, shapes), T.float64, requires_grad=True)
    assert gradgradcheck(lambda *xs: row.op(T, *xs), inputs)


@pytest.mark.parametrize("row, shapes", [c for c in CASES if c.values[0].grad_ref is not None])
def test_gradient_matches_numpy_reference(row, shapes):
    arrays = _arrays(row, shapes)
    inputs = _tensors(arrays, T.float64, requires_grad=True)
    _as_list(row.op(T, *inputs))[0].sum().backward()
    expected = _as_list(row.grad_ref(*arrays))
    for x, g in zip(inputs, expected):
        np.testing.assert_allclose(x.grad.numpy(), g, rtol=1e-12)


@pytest.mark.parametrize("row, shapes", CASES)
def test_float32_gradients_keep_input_shape_and_dtype(row, shapes):
    inputs = _tensors(_arrays(row, shapes), T.float32, requires_grad=True)
    outs = [o for o in _as_list(row.op(T, *inputs)) if o.requires_grad]
    T.autograd.backward([o.sum() for o in outs])
    for x in inputs:
        assert x.grad is not None
        assert x.grad.shape == x.shape
        assert x.grad.dtype == T.float32


@pytest.mark.parametrize("expr, dtype", PROMOTION, ids=[e for e, _ in PROMOTION])
def test_type_promotion(expr, dtype):
    assert eval(expr, {"T": T}).dtype == getattr(T, dtype)


def test_gradcheck_catches_a_wrong_backward():
    class WrongSquare(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * x  # missing the factor 2

    x = T.tensor([0.5, -1.5], dtype=T.float64, requires_grad=True)
    assert gradcheck(WrongSquare.apply, (x,), raise_exception=False) is False
    with pytest.raises(GradcheckError, match="Jacobian mismatch for output 0 with respect to input 0"):
        gradcheck(WrongSquare.apply, (x,))


def test_gradgradcheck_catches_a_backward_that_is_not_differentiable():
    class OnceSquare(T.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * grad.detach() * x.detach()  # right first order, no graph for the second

    x = T.tensor([0.5, -1.5], dtype=T.float64, requires_grad=True)
    assert gradcheck(OnceSquare.apply, (x,))
    assert gradgradcheck(OnceSquare.apply, (x,), raise_exception=False) is False
