"""Broadcasting, property-based: for random mutually broadcastable shapes, binary ops compute what
NumPy computes, and each input's gradient is the upstream gradient times the local derivative,
summed back (by NumPy here) over the broadcast dims to exactly that input's shape."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

import autograd_py as T

SETTINGS = settings(max_examples=50, deadline=None)
SEEDS = st.integers(0, 2**32 - 1)


def reduce_to(grad, shape):
    """Sums a broadcast gradient back to ``shape`` (the adjoint of broadcasting), in NumPy."""
    grad = grad.sum(axis=tuple(range(grad.ndim - len(shape))))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1)
    return grad.sum(axis=axes, keepdims=True).reshape(shape)


def _positive(rng, shape):
    return rng.uniform(0.3, 2.0, shape)


def _nonzero(rng, shape):
    return rng.uniform(0.3, 2.0, shape) * rng.choice([-1.0, 1.0], shape)


def _any(rng, shape):
    return rng.uniform(-2.0, 2.0, shape)


# name: (op on T, NumPy forward, NumPy local derivatives (d out/d a, d out/d b), domains of a and b)
BINARY = {
    "add": (lambda a, b: a + b, np.add, lambda a, b: (np.ones_like(a + b), np.ones_like(a + b)), (_any, _any)),
    "sub": (lambda a, b: a - b, np.subtract, lambda a, b: (np.ones_like(a - b), -np.ones_like(a - b)),
            (_any, _any)),
    "mul": (lambda a, b: a * b, np.multiply, lambda a, b: (b + 0 * a, a + 0 * b), (_any, _any)),
    "div": (lambda a, b: a / b, np.divide, lambda a, b: (1 / b + 0 * a, -a / b ** 2), (_any, _nonzero)),
    "pow": (lambda a, b: a ** b, np.power, lambda a, b: (b * a ** (b - 1), a ** b * np.log(a)),
            (_positive, _any)),
    "maximum": (T.maximum, np.maximum, lambda a, b: ((a > b) + 0.0 * b, (b > a) + 0.0 * a), (_any, _any)),
    "minimum": (T.minimum, np.minimum, lambda a, b: ((a < b) + 0.0 * b, (b < a) + 0.0 * a), (_any, _any)),
    "add_alpha": (lambda a, b: T.add(a, b, alpha=-2), lambda a, b: a - 2 * b,
                  lambda a, b: (np.ones_like(a + b), np.full_like(a + b, -2.0)), (_any, _any)),
}


@pytest.mark.parametrize("name", list(BINARY))
@SETTINGS
@given(shapes=mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, min_side=0, max_side=3),
       seed=SEEDS)
def test_binary_op_broadcasts_like_numpy(name, shapes, seed):
    op, ref, local_grads, domains = BINARY[name]
    rng = np.random.default_rng(seed)
    (sa, sb), out_shape = shapes.input_shapes, shapes.result_shape
    a_np, b_np = domains[0](rng, sa), domains[1](rng, sb)
    a = T.tensor(a_np, dtype=T.float32, requires_grad=True)
    b = T.tensor(b_np, dtype=T.float64, requires_grad=True)
    a64 = T.tensor(a_np, dtype=T.float64, requires_grad=True)

    out = op(a64, b)
    assert tuple(out.shape) == out_shape
    assert out.dtype == T.float64
    np.testing.assert_allclose(out.detach().numpy(), ref(a_np, b_np), rtol=1e-12, atol=1e-12)
    # float32 (dimensioned) op float64: the dimensioned operands decide, so float64 here.
    mixed = op(a, b)
    assert mixed.dtype == (T.float64 if len(sb) or not len(sa) else T.float32)

    upstream = rng.standard_normal(out_shape)
    out.backward(T.tensor(upstream, dtype=T.float64))
    da, db = local_grads(a_np, b_np)
    for x, local in ((a64, da), (b, db)):
        assert x.grad.shape == x.shape
        assert x.grad.dtype == T.float64
        np.testing.assert_allclose(x.grad.numpy(), reduce_to(upstream * local, tuple(x.shape)),
                                   rtol=1e-10, atol=1e-12)

    mixed.backward(T.tensor(upstream, dtype=mixed.dtype))
    assert a.grad.shape == a.shape and a.grad.dtype == T.float32
    np.testing.assert_allclose(a.grad.numpy(), reduce_to(upstream * da, tuple(a.shape)), rtol=1e-4, atol=1e-4)


@SETTINGS
@given(shapes=mutually_broadcastable_shapes(num_shapes=3, min_dims=0, max_dims=3, min_side=1, max_side=3),
       seed=SEEDS)
def test_where_broadcasts_condition_and_both_branches(shapes, seed):
    rng = np.random.default_rng(seed)
    sc, sa, sb = shapes.input_shapes
    cond_np = rng.random(sc) < 0.5
    a_np, b_np = rng.standard_normal(sa), rng.standard_normal(sb)
    a = T.tensor(a_np, dtype=T.float64, requires_grad=True)
    b = T.tensor(b_np, dtype=T.float64, requires_grad=True)
    out = T.where(T.tensor(cond_np), a, b)
    np.testing.assert_array_equal(out.detach().numpy(), np.where(cond_np, a_np, b_np))
    upstream = rng.standard_normal(shapes.result_shape)
    out.backward(T.tensor(upstream, dtype=T.float64))
    cond = np.broadcast_to(cond_np, shapes.result_shape)
    np.testing.assert_allclose(a.grad.numpy(), reduce_to(np.where(cond, upstream, 0), sa), atol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), reduce_to(np.where(cond, 0, upstream), sb), atol=1e-12)


def _matmul_grads(a, b, g):
    """NumPy gradients of ``a @ b`` with upstream ``g``, following matmul's 1-D promotion rules."""
    a2 = a[None, :] if a.ndim == 1 else a
    b2 = b[:, None] if b.ndim == 1 else b
    g2 = g
    if b.ndim == 1:
        g2 = g2[..., None]
    if a.ndim == 1:
        g2 = g2[..., None, :]
    ga = reduce_to(g2 @ np.swapaxes(b2, -1, -2), a2.shape).reshape(a.shape)
    gb = reduce_to(np.swapaxes(a2, -1, -2) @ g2, b2.shape).reshape(b.shape)
    return ga, gb


@SETTINGS
@given(shapes=mutually_broadcastable_shapes(signature=np.matmul.signature, max_dims=3, min_side=1, max_side=3),
       seed=SEEDS)
def test_matmul_broadcasts_batch_dims(shapes, seed):
    rng = np.random.default_rng(seed)
    sa, sb = shapes.input_shapes
    a_np, b_np = rng.standard_normal(sa), rng.standard_normal(sb)
    a = T.tensor(a_np, dtype=T.float64, requires_grad=True)
    b = T.tensor(b_np, dtype=T.float64, requires_grad=True)
    out = a @ b
    expected = np.matmul(a_np, b_np)
    assert tuple(out.shape) == expected.shape
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-12)
    upstream = rng.standard_normal(expected.shape)
    out.backward(T.tensor(upstream, dtype=T.float64))
    ga, gb = _matmul_grads(a_np, b_np, upstream)
    np.testing.assert_allclose(a.grad.numpy(), ga, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), gb, rtol=1e-10, atol=1e-12)


@SETTINGS
@given(shapes=mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, min_side=1, max_side=3),
       seed=SEEDS)
def test_inplace_add_broadcasts_other_into_self(shapes, seed):
    rng = np.random.default_rng(seed)
    (sa, sb), out_shape = shapes.input_shapes, shapes.result_shape
    a_np, b_np = rng.standard_normal(sa), rng.standard_normal(sb)
    a = T.tensor(a_np, dtype=T.float64, requires_grad=True)
    b = T.tensor(b_np, dtype=T.float64, requires_grad=True)
    y = a * 1.0
    if tuple(out_shape) != tuple(sa):
        # self would have to grow: PyTorch refuses
        with pytest.raises(RuntimeError, match=r"^output with shape \[.*\] doesn't match the broadcast shape"):
            y.add_(b)
        return
    y.add_(b)
    assert y.grad_fn.name() == "AddBackward0"
    upstream = rng.standard_normal(sa)
    y.backward(T.tensor(upstream, dtype=T.float64))
    np.testing.assert_allclose(a.grad.numpy(), upstream)
    np.testing.assert_allclose(b.grad.numpy(), reduce_to(upstream, sb), atol=1e-12)


@pytest.mark.parametrize("dtype, kind", [(T.float32, "torch.FloatTensor"), (T.int64, "torch.LongTensor"),
                                         (T.float64, "torch.DoubleTensor"), (T.bool, "CPUBoolType")])
def test_expand_to_fewer_dims_names_the_tensor_by_its_type_as_pytorch(dtype, kind):
    # program 502:1636: an int64 product's message said FloatTensor; bool has no legacy type name
    with pytest.raises(RuntimeError) as e:
        T.zeros(2, 1, dtype=dtype).expand(3)
    assert str(e.value) == (f"expand({kind}{{[2, 1]}}, size=[3]): the number of sizes provided (1) must be "
                            "greater or equal to the number of dimensions in the tensor (2)")
