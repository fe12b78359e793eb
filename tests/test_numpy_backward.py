"""Backward formulas run on NumPy data (numpy_backward.py) give what they give on Tensors.

Without ``create_graph``, a node whose class sets ``numpy_formula`` runs its formula on the
gradients' and saved tensors' arrays; with it, on Tensors (recording the higher-order graph).
The two paths must agree bit for bit: values, dtype and strides. Each case also checks that the
NumPy path really ran, since it quietly steps aside for anything unusual: among others for a node
whose gradient or saved input is an efficient zero tensor, and only for that node, so the tests
pass in any order, also after other tests made zero tensors.
"""
import numpy as np
import pytest

import autograd_py as T

import numpy_path_spy
from autograd_py.ops import zerotensor

MATRIX = np.arange(12.0).reshape(4, 3) / 7

CASES = {
    "mul_scalar": lambda x: x * 1.7,
    "mul_scalar -0.0": lambda x: x * -0.0,  # (float64 data times a cached 0-dim array: -0.0's own)
    "mul_scalar nan": lambda x: T.sin(x) * float("nan"),
    "mul": lambda x: x * (x + 0.5),
    "div": lambda x: (x + 3.0) / (x * x + 1.0),
    "div_scalar": lambda x: x / 3,
    "sub": lambda x: x - x * 2.0,
    "rsub": lambda x: 2.0 - x,
    "neg": lambda x: -x,
    "sin": T.sin,
    "cos": T.cos,
    "tan": T.tan,
    "tanh": T.tanh,
    "sigmoid": T.sigmoid,
    "relu": T.relu,
    "sqrt": lambda x: T.sqrt(x * x + 1),
    "reciprocal": lambda x: T.reciprocal(x + 3.0),
    "exp": T.exp,
    "log": lambda x: T.log(x * x + 0.5),
    "log1p": lambda x: T.log1p(x * x),
    "pow 2": lambda x: x ** 2,
    "pow 3": lambda x: x ** 3,
    "pow 0": lambda x: x ** 0,
    "pow 0.5": lambda x: (x * x + 1) ** 0.5,
    "pow -1.5": lambda x: (x + 3.0) ** -1.5,
    "add alpha": lambda x: T.add(x, x * 2.0, alpha=3),
    "sub alpha": lambda x: T.sub(x, x * 2.0, alpha=0.5),
    "float32 times a float64 0-dim": lambda x: x * T.tensor(1.5, dtype=T.float64),
}
# A float32 tensor times a float64 0-dim one saves a value of another dtype than the gradient's:
# the node may step aside to Tensors, and only the agreement is checked.
MAY_STEP_ASIDE = {"float32 times a float64 0-dim"}


@pytest.fixture
def numpy_path(monkeypatch):
    """Counts the nodes the NumPy path ran."""
    return numpy_path_spy.record(monkeypatch)


@pytest.mark.parametrize("shape", [(), (3,), (2, 3)], ids=["0-dim", "1-d", "2-d"])
@pytest.mark.parametrize("dtype", [T.float32, T.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name", list(CASES))
def test_both_paths_give_the_same_gradient(numpy_path, name, dtype, shape):
    rng = np.random.default_rng(0)
    data, weights = rng.uniform(-1, 1, shape), rng.uniform(-1, 1, shape)
    f = CASES[name]
    # A contiguous gradient of its own (``.sum()``'s would be an expanded one, which the NumPy
    # path leaves to Tensors past 1-d).
    x = T.tensor(data, dtype=dtype, requires_grad=True)
    y = f(x)
    on_arrays = T.autograd.grad(y, x, T.tensor(weights, dtype=y.dtype))[0]
    assert numpy_path or name in MAY_STEP_ASIDE, "the NumPy path did not run"
    numpy_path.clear()
    x = T.tensor(data, dtype=dtype, requires_grad=True)
    y = f(x)
    on_tensors = T.autograd.grad(y, x, T.tensor(weights, dtype=y.dtype), create_graph=True)[0]
    assert not numpy_path
    assert on_arrays.dtype == on_tensors.dtype
    assert on_arrays._data.strides == on_tensors._data.strides
    np.testing.assert_array_equal(on_arrays.detach().numpy(), on_tensors.detach().numpy())


def test_mv_backward_runs_on_arrays_too(numpy_path):
    x = T.tensor([0.3, -0.2, 0.9], dtype=T.float64, requires_grad=True)
    on_arrays = T.autograd.grad(T.mv(T.tensor(MATRIX), x).sum(), x)[0]
    assert "MvBackward0" in numpy_path
    x = T.tensor([0.3, -0.2, 0.9], dtype=T.float64, requires_grad=True)
    on_tensors = T.autograd.grad(T.mv(T.tensor(MATRIX), x).sum(), x, create_graph=True)[0]
    np.testing.assert_array_equal(on_arrays.detach().numpy(), on_tensors.detach().numpy())
    np.testing.assert_array_equal(on_arrays.detach().numpy(), MATRIX.sum(axis=0))


def test_a_modified_saved_tensor_raises_on_the_numpy_path_as_on_tensors(numpy_path):
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1.0
    z = y.sin()
    y.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()


def _zero_tensor():
    """abs's double backward: the real sgn's backward, an efficient zero tensor (as in torch 2.13)."""
    x = T.tensor([1.58, -2.0], dtype=T.float64, requires_grad=True)
    g, = T.autograd.grad(x.abs().sum(), [x], create_graph=True)
    z, = T.autograd.grad(g.sum(), [x])
    assert z._is_zerotensor() and zerotensor.made[0]
    return z


def test_the_path_still_runs_after_a_zero_tensor_was_made(numpy_path):
    _zero_tensor()
    numpy_path.clear()
    x = T.tensor([0.3, -0.2], dtype=T.float64, requires_grad=True)
    got = T.autograd.grad((x * 1.5).sin(), x, T.ones(2, dtype=T.float64))[0]
    assert numpy_path == ["SinBackward0", "MulBackward0"]
    np.testing.assert_array_equal(got.numpy(), np.cos(np.array([0.3, -0.2]) * 1.5) * 1.5)


def test_a_node_meeting_a_zero_tensor_steps_aside(numpy_path):
    # torch 2.13: the zero tensor as the gradient of w * w.exp() and of w.sin() at w = inf gives
    # zero tensors of zeros (its kernels skip inf * 0), where arrays of zeros would give NaN.
    z = _zero_tensor()
    w = T.tensor([float("inf"), 2.0], dtype=T.float64, requires_grad=True)
    for f in (lambda w: w * w.exp(), T.sin):
        numpy_path.clear()
        r, = T.autograd.grad(f(w), w, z)
        assert r._data.tolist() == [0.0, 0.0] and r._is_zerotensor()
        assert not numpy_path
    # saved as an operand of a product: that MulBackward0 runs on Tensors, the one of * 2.0 on arrays
    numpy_path.clear()
    v = T.tensor([float("inf"), 2.0], dtype=T.float64, requires_grad=True)
    r, = T.autograd.grad((v * z * 2.0).sum(), v)
    assert r._data.tolist() == [0.0, 0.0] and r._is_zerotensor()
    assert numpy_path == ["MulBackward0"]


@pytest.mark.parametrize("shape", [(3,), (1, 3), (2, 1), (), (4, 2, 3)], ids=str)
@pytest.mark.parametrize("dtype", [T.float32, T.float64], ids=["float32", "float64"])
def test_the_engine_sums_a_broadcast_gradient_on_arrays_as_on_tensors(monkeypatch, dtype, shape):
    # without create_graph the engine's _validate sums on NumPy data (ops/unbroadcast); with it, by sum_to
    from autograd_py import engine_grads
    ran = []
    original = engine_grads.sum_to_plain
    monkeypatch.setattr(engine_grads, "sum_to_plain", lambda g, s: ran.append(s) or original(g, s))
    rng = np.random.default_rng(1)
    data, weights = rng.uniform(-1, 1, shape), rng.uniform(-1, 1, (4, 2, 3))
    results = []
    for create_graph in (False, True):
        b = T.tensor(data, dtype=dtype, requires_grad=True)
        seen = []
        b.register_hook(lambda g: seen.append((g._base is not None, None if g._base is None else g._base.shape)))
        x = T.tensor(np.ones((4, 2, 3)), dtype=dtype)
        g, = T.autograd.grad(x * 2.0 + b, b, T.tensor(weights, dtype=dtype), create_graph=create_graph)
        results.append((g.detach().numpy(), g.dtype, g._data.strides, seen))
    assert ran == ([] if len(shape) == 3 else [shape])
    (a, da, sa, seen_a), (t, dt, st, seen_t) = results
    np.testing.assert_array_equal(a, t)
    assert (da, sa, seen_a) == (dt, st, seen_t)
    # PyTorch's at::sum_to: a view of the keepdim sum when leading dims go (a tensor hook sees it)
    assert seen_a[0][0] == (len(shape) < 3 and len(shape) > 0)


W23 = T.tensor(MATRIX[:2, :3].copy())
W34 = T.tensor(MATRIX[:3, :].T.copy())
# (function of x, the node that must run on arrays, shapes it is tried at)
SHAPED = {
    "mean": (lambda x: x.mean(), "MeanBackward0", [(), (3,), (2, 3)]),
    "mean dim 0": (lambda x: x.mean(0), "MeanBackward1", [(3,), (2, 3)]),
    "mean dim -1 keepdim": (lambda x: x.mean(-1, keepdim=True), "MeanBackward1", [(3,), (2, 3)]),
    "mean dims (0, 1)": (lambda x: x.mean((0, 1)), "MeanBackward1", [(2, 3)]),
    "log_softmax": (lambda x: T.log_softmax(x, dim=-1), "LogSoftmaxBackward0", [(3,), (2, 3)]),
    "softmax dim 0": (lambda x: T.softmax(x, dim=0), "SoftmaxBackward0", [(3,), (2, 3)]),
    "expand in front": (lambda x: x.expand(4, *x.shape), "ExpandBackward0", [(), (3,), (2, 3)]),
    "expand a size-1 dim": (lambda x: x.sum(-1, keepdim=True).expand(*x.shape[:-1], 3), "ExpandBackward0",
                            [(3,), (2, 3)]),
    "expand to its own shape": (lambda x: (x * 1.0).expand(*x.shape), "ExpandBackward0", [(3,), (2, 3)]),
    "mm x @ W": (lambda x: x @ W34.to(x.dtype), "MmBackward0", [(2, 3)]),
    "mm W @ x": (lambda x: W23.to(x.dtype) @ x.reshape(3, 2), "MmBackward0", [(2, 3)]),
    "mm x @ x.T": (lambda x: T.mm(x * 1.0, (x * 2.0).t().contiguous()), "MmBackward0", [(2, 3)]),
}


@pytest.mark.parametrize("dtype", [T.float32, T.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("name,shape", [(n, s) for n, (_, _, shapes) in SHAPED.items() for s in shapes],
                         ids=lambda v: str(v))
def test_reductions_softmax_and_mm_give_the_same_gradient_on_arrays(numpy_path, name, shape, dtype):
    f, node, _ = SHAPED[name]
    rng = np.random.default_rng(2)
    data = rng.uniform(-1, 1, shape)
    results = []
    for create_graph in (False, True):
        numpy_path.clear()
        x = T.tensor(data, dtype=dtype, requires_grad=True)
        y = f(x)
        weights = T.tensor(np.random.default_rng(3).uniform(-1, 1, tuple(y.shape)), dtype=y.dtype)
        g, = T.autograd.grad(y, x, weights, create_graph=create_graph)
        assert (node in numpy_path) != create_graph
        results.append((g.detach().numpy(), g.dtype, g._data.strides, g._base is None))
    (a, *meta_a), (t, *meta_t) = results
    assert meta_a == meta_t
    np.testing.assert_array_equal(a, t)


def test_mm_of_a_column_major_operand_steps_aside(numpy_path):
    # PyTorch's mm_mat1_backward returns a transposed (view) gradient for a column-major mat1
    a = T.tensor(MATRIX.T.copy(), requires_grad=True)
    x = a.t()  # 4 x 3, column-major
    g, = T.autograd.grad(x @ W34.t(), a, T.ones(4, 3, dtype=T.float64))
    assert "MmBackward0" not in numpy_path
    np.testing.assert_array_equal(g.numpy(), (np.ones((4, 3)) @ W34.numpy()).T)


def test_two_gradients_of_different_layouts_add_in_the_first_ones_layout():
    # torch 2.13: x's two gradients arrive column-major (through t().contiguous()) and row-major;
    # their sum keeps the first one's layout, strides (1, 2), with create_graph or without
    for create_graph in (False, True):
        x = T.tensor(MATRIX[:2].copy(), dtype=T.float32, requires_grad=True)
        y = T.mm(x * 1.0, (x * 2.0).t().contiguous())
        g, = T.autograd.grad(y, x, T.ones(2, 2), create_graph=create_graph)
        assert g.stride() == (1, 2)


def test_sums_in_buffers_show_their_versions_with_the_listener_or_without(numpy_path):
    # A gradient summed in a buffer shows PyTorch's in-place add in its version, whether formulas
    # ran on NumPy data or not (the step-through's listener sees every gradient).
    from autograd_py import engine

    def run():
        seen = []
        x = T.tensor([0.5, 1.5, -0.3], dtype=T.float64, requires_grad=True)
        y = x * 1.5
        y.register_hook(lambda g: seen.append((g._version, g.tolist())))
        w = y.tanh()
        loss = (w.sin() * 2.0 + w.exp() * y + (x * x).cos()).sum()
        loss.backward()
        g, = T.autograd.grad((x.sin() * x.cos()).exp().sum(), x)
        return x.grad.tolist(), x.grad._version, seen, g.tolist(), g._version

    plain = run()
    ran = len(numpy_path)
    old = engine.set_listener(lambda event: None)
    try:
        listened = run()
    finally:
        engine.set_listener(old)
    assert ran and plain == listened
    # torch 2.13: x's three gradients were added in place twice (version 2), y's two once
    assert plain[1] == 2 and plain[2][0][0] == 1 and plain[4] == 1
