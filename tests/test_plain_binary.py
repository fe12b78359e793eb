"""``+``, ``-`` and ``*`` of plain operands (ops/plain_binary.py) record what the general path records.

The fast path computes and records the common case itself (a float32/float64 tensor of at most one
dim with a Python float or a same-shape tensor of its dtype). Each case runs once through it and
once through the general op it falls back to (``plain_binary.general``), and compares the result's
bytes, the graph (node names, edges, saved values) and the gradients; each also checks which path
the case took, so that a fast path that quietly stopped applying (or one that took a case it must
leave alone) fails here. Each case runs both before and after an efficient zero tensor was made
(``zerotensor.made``): the fast path steps aside only for a zero tensor operand.
"""
import numpy as np
import pytest

import autograd_py as T
from autograd_py.ops import base, plain_binary, zerotensor


@pytest.fixture(params=[False, True], ids=["no zero tensor made", "zero tensors made"])
def zeros_made(request):
    made = zerotensor.made[0]
    zerotensor.made[0] = request.param
    yield
    zerotensor.made[0] = made


def _leaf(value, dtype=T.float64):
    return T.tensor(value, dtype=dtype, requires_grad=True)


def _case_inputs(name):
    if name == "0d leaf, float":
        return _leaf(0.3), 1.7
    if name == "0d history, 0d leaf":
        return _leaf(0.3) * 2.0, _leaf(-1.25)
    if name == "1d float32 history, float":
        return _leaf([0.1, -0.2, 0.3], T.float32) + 0.5, 0.1
    if name == "1d leaf, 1d history":
        x = _leaf([0.5, 1.5, -2.0])
        return x, T.sin(x)
    if name == "1d constant, 1d leaf":
        return T.tensor([2.0, 3.0, 4.0], dtype=T.float64), _leaf([1.0, -1.0, 0.5])
    if name == "1d leaf, 1d constant":
        return _leaf([1.0, -1.0, 0.5]), T.tensor([2.0, 3.0, 4.0], dtype=T.float64)
    if name == "no_grad view of a leaf, float":  # a view without history: the general path's case
        x = _leaf([1.0, 2.0, 3.0])
        with T.no_grad():
            v = x[1:]
        return v, 2.5
    if name == "2d, float":  # more than one dim: the general path lays results out
        return _leaf([[1.0, 2.0], [3.0, 4.0]]) * 1.0, 0.5
    raise KeyError(name)


PLAIN = ["0d leaf, float", "0d history, 0d leaf", "1d float32 history, float", "1d leaf, 1d history",
         "1d constant, 1d leaf", "1d leaf, 1d constant"]
GENERAL = ["no_grad view of a leaf, float", "2d, float"]
OPS = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b}


def _graph(t):
    """Node names, output numbers and saved values, breadth first from ``t.grad_fn``."""
    out, todo, seen = [], [t.grad_fn], set()
    while todo:
        fn = todo.pop(0)
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        row = [fn.name(), [(None if f is None else f.name(), nr) for f, nr in fn.next_functions]]
        for attr in ("_saved_self", "_saved_other", "_saved_alpha"):
            value = getattr(fn, attr, None)
            row.append(value.detach().numpy().tolist() if isinstance(value, T.Tensor) else value)
        out.append(row)
        todo.extend(f for f, _ in fn.next_functions)
    return out


def _run(name, op):
    a, b = _case_inputs(name)
    y = OPS[op](a, b)
    graph = _graph(y)
    leaves = [t for t in (a, b) if isinstance(t, T.Tensor) and t.requires_grad]
    grads = T.autograd.grad(y.sum(), leaves, allow_unused=True) if y.requires_grad else []
    return (y.detach().numpy().tobytes(), y.dtype, tuple(y.shape), y.requires_grad, graph,
            [None if g is None else g.numpy().tobytes() for g in grads])


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("name", PLAIN + GENERAL)
def test_same_as_general_path(name, op, monkeypatch, zeros_made):
    fell_back = []
    general = plain_binary.general[op]

    def spy(*args, **kwargs):
        fell_back.append(True)
        return general(*args, **kwargs)

    monkeypatch.setitem(plain_binary.general, op, spy)
    fast = _run(name, op)
    assert bool(fell_back) == (name in GENERAL)
    # the general op itself, as pointwise defines it (add, sub and mul are plain_binary's ops)
    monkeypatch.setitem(OPS, op, general)
    assert _run(name, op) == fast


def test_node_recorder_sees_plain_nodes(zeros_made):
    """The playground's provenance recorder is called with the nodes the fast path makes."""
    seen = []
    previous, base.node_recorder[0] = base.node_recorder[0], seen.append
    try:
        x = _leaf([1.0, 2.0])
        y = T.sin(x * 3.0 + 1.0)
    finally:
        base.node_recorder[0] = previous
    assert [n.name() for n in seen] == ["MulBackward0", "AddBackward0", "SinBackward0"]
    assert seen[2] is y.grad_fn


def test_no_grad_and_float16_stay_out():
    x = _leaf([1.0, 2.0])
    with T.no_grad():
        y = x * 2.0
    assert y.grad_fn is None and not y.requires_grad
    h = T.tensor([1.0, 2.0], dtype=T.float16, requires_grad=True)
    fell_back = []
    general = plain_binary.general["mul"]
    plain_binary.general["mul"] = lambda *args: fell_back.append(True) or general(*args)
    try:
        assert (h * 2.0).grad_fn.name() == "MulBackward0"
    finally:
        plain_binary.general["mul"] = general
    assert fell_back == [True]


@pytest.mark.parametrize("op", sorted(OPS))
def test_zero_tensor_operand_takes_the_general_path(op):
    """An efficient zero tensor multiplies to a zero tensor and adds as the other operand's values."""
    x = _leaf([1.5, -2.0])
    z = zerotensor.mark(T.zeros(2, dtype=T.float64))
    for a, b in ((z, x), (x, z)):
        out = OPS[op](a, b)
        if op == "mul":
            assert out._is_zerotensor()
        else:
            assert not out._is_zerotensor()
            assert out.detach().numpy().tolist() == ([1.5, -2.0] if op == "add" or a is x else [-1.5, 2.0])
