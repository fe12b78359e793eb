"""Shortcuts taken by every ``grad`` of a scalar loss (W5's two passes) give what the general
path gives: the implicit gradient of a 0-dim output, a full sum's expanded gradient, and the
version a buffer's sum of two gradients shows."""
import numpy as np
import pytest

import autograd_py as torch
from autograd_py.autograd import api
from autograd_py.engine_grads import _add_grads
from autograd_py.ops import shape


def _array_facts(a):
    return (a.tobytes(), a.dtype, a.shape, a.strides, a.flags.c_contiguous, a.flags.f_contiguous,
            a.flags.writeable, a.flags.owndata, a.__class__)


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.float16])
def test_the_implicit_gradient_of_a_0dim_output_is_ones_like_its_data(dtype):
    y = (torch.tensor([1.5, -2.0], dtype=dtype, requires_grad=True) * 3.0).sum()
    (g,) = api._make_grads((y,), (None,))
    assert _array_facts(g._data) == _array_facts(np.ones_like(y._data))
    assert g._version == 0 and not g.requires_grad and g.grad_fn is None
    # the general path (two outputs) makes each the same way
    g2 = api._make_grads((y, y), (None, None))
    assert [_array_facts(t._data) for t in g2] == [_array_facts(g._data)] * 2


def test_an_implicit_gradient_the_shortcut_cannot_make_still_gets_the_general_checks():
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        api._make_grads((torch.ones(2, requires_grad=True) * 2,), (None,))
    one = (torch.ones(1, 1, requires_grad=True) * 2)
    (g,) = api._make_grads((one,), (None,))
    assert _array_facts(g._data) == _array_facts(np.ones_like(one._data))
    assert api._make_grads((torch.ones(()) * 2,), (None,)) == [None]


def _view_facts(t, base):
    fn = t.grad_fn
    return (_array_facts(t._data), t._base is base, t._version_counter is base._version_counter,
            t.requires_grad,
            None if fn is None else (fn.name(), [(n is base.grad_fn, nr) for n, nr in fn.next_functions], fn.shape),
            _array_facts(t._view_fn(torch.tensor(7.0, dtype=base.dtype))._data),
            _array_facts(t._np_view_fn(np.asarray(7.0, base._data.dtype))))


@pytest.mark.parametrize("shape_", [(), (3,), (2, 3), (1, 4, 1), (0,), (2, 0)])
@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_expand_scalar_makes_the_view_and_node_expand_makes(shape_, requires_grad, dtype):
    made = []
    for fn in (shape.expand, shape.expand_scalar):
        base = torch.tensor(2.5, dtype=dtype, requires_grad=requires_grad)
        grad = base * 1.0 if requires_grad else base  # a non-leaf, as a recorded backward's gradient
        made.append(_view_facts(fn(grad, shape_), grad))
    assert made[0] == made[1]


def test_expand_scalar_hands_what_it_does_not_take_to_expand():
    t = torch.tensor([1.0, 2.0])
    assert _array_facts(shape.expand_scalar(t, (3, 2))._data) == _array_facts(shape.expand(t, (3, 2))._data)
    s = torch.tensor(1.0)
    assert _array_facts(shape.expand_scalar(s, [2, 2])._data) == _array_facts(shape.expand(s, [2, 2])._data)
    with pytest.raises(RuntimeError, match="must match the existing size"):
        shape.expand_scalar(t, (3,))


def test_a_sums_gradient_under_create_graph_is_the_expanded_view_of_the_root_gradient():
    x = torch.tensor([0.5, 1.5, 2.5], dtype=torch.float64, requires_grad=True)
    seen = []
    y = x * 2.0
    y.register_hook(lambda g: seen.append((g._base, g._data.strides, g._data.shape)))
    loss = y.sum()
    (g,) = torch.autograd.grad(loss, x, create_graph=True)
    base, strides, shape_ = seen[0]
    assert base is not None and base._data.shape == () and strides == (0,) and shape_ == (3,)
    np.testing.assert_array_equal(g._data, [2.0, 2.0, 2.0])


@pytest.mark.parametrize("make", [
    lambda: torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64),
    lambda: torch.tensor(2.0, dtype=torch.float64),
    lambda: torch.tensor([[1.0, 2.0, 3.0]], dtype=torch.float64),
    lambda: torch.tensor(2.0, dtype=torch.float64).expand(3),
    lambda: torch.tensor([[1.0], [2.0]], dtype=torch.float64).expand(2, 3),
    lambda: torch.tensor([[1.0, 2.0, 3.0]], dtype=torch.float64).expand(1, 3),
])
def test_a_buffers_sum_bumps_the_version_only_of_a_dense_sole_gradient(make):
    buf = [make()]
    other = torch.ones(buf[0].shape, dtype=torch.float64)
    a = buf[0]
    d = a._data
    # what PyTorch's in-place sum needs: no view, no stride-0 dim of more than one element
    dense = a._base is None and all(s or n <= 1 for s, n in zip(d.strides, d.shape))
    version = a._version
    del a, d
    out = _add_grads(buf[0], other, False)  # the buffer's slot its only holder, as in the engine
    assert out._version == (version + 1 if dense else 0)
    np.testing.assert_array_equal(out._data, buf[0]._data + 1.0)


_MUL_INPUTS = [
    np.linspace(-2.0, 3.0, 7),
    np.linspace(-2.0, 3.0, 12).reshape(3, 4).T,  # a transposed layout
    np.ndarray((5,), np.float64, np.asarray(1.5), 0, (0,)),  # a sum's expanded gradient
    np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 1.7976931348623157e308]),
    np.float64(2.5),  # a 0-dim value, as numpy_backward hands it on
    np.linspace(-2.0, 3.0, 7).astype(np.float32),
]


@pytest.mark.parametrize("data", _MUL_INPUTS)
def test_mul_scalar_on_numpy_data_gives_the_ufuncs_product_with_the_float(data):
    from autograd_py.ops.pointwise import mul_scalar
    for number in (3.0, 2.0, -0.5, 0.0, -0.0, float("inf"), float("nan"), 1e308, 1.0 + 2 ** -52):
        for attempt in range(2):  # the second finds its 0-dim array cached
            got, want = mul_scalar(data, number), np.multiply(data, number)
            assert got.__class__ is want.__class__ and got.dtype == want.dtype
            assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
            assert np.asarray(got).strides == np.asarray(want).strides
        # an equal float that is another object finds the same array; a zero of the other sign does not
        other = -number if number == 0 else float(repr(number))
        assert np.asarray(mul_scalar(data, other)).tobytes() == np.asarray(np.multiply(data, other)).tobytes()
