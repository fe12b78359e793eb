"""Optional parity with real PyTorch (skipped where torch is not installed).

Runs the op table and the literal tables under real torch and under autograd_py side by side:
forward values, dtypes, gradients, ``grad_fn`` names and whole backward graphs must agree, and
the literals the torch-free tests rely on must still be what torch says.
"""
import sys
import zlib

import pytest

# Real torch first, before anything can map ``torch`` to autograd_py (install_as_torch).
torch = pytest.importorskip("torch")
if not hasattr(torch, "_C"):
    pytest.fail(f"'torch' is not PyTorch here but {torch.__name__}; an alias was installed before this module",
                pytrace=False)

import numpy as np  # noqa: E402

import autograd_py as ag  # noqa: E402
from op_table import OPS, PROMOTION, shape_id  # noqa: E402
from torch_cases import BACKWARD_TWICE, ENGINE_ORDER, GRAD_FN_NAMES, REPRS, leaves  # noqa: E402

# Other test modules (the playground Session) map ``torch`` to autograd_py for good; real torch
# imports its own submodules lazily, so each test here runs with torch's modules put back.
REAL_TORCH_MODULES = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}


@pytest.fixture(autouse=True)
def real_torch_modules():
    current = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}
    sys.modules.update(REAL_TORCH_MODULES)
    yield
    sys.modules.update(current)  # submodules torch imported meanwhile stay: deleting them costs a re-import


CASES = [pytest.param(row, shapes, id=f"{row.name}-{shape_id(shapes)}") for row in OPS for _, shapes in row.samples()]


def _as_list(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


def _run(T, row, arrays, upstream_seed):
    """Forward + backward of one row under ``T``: outputs, grad_fn names, input gradients."""
    xs = [T.tensor(a, dtype=T.float64, requires_grad=True) for a in arrays]
    outs = _as_list(row.op(T, *xs))
    names = [o.grad_fn.name() if o.grad_fn is not None else None for o in outs]
    rng = np.random.default_rng(upstream_seed)
    diff = [o for o in outs if o.requires_grad]
    ups = [T.tensor(rng.standard_normal(tuple(o.shape)), dtype=T.float64) for o in diff]
    T.autograd.backward(diff, ups)
    return ([o.detach().numpy().copy() for o in outs], names,
            [None if x.grad is None else x.grad.numpy().copy() for x in xs])


def walk(t):
    """The backward graph from ``t`` in BFS order: (name, [(node index, output_nr) or None])."""
    fn = t.grad_fn
    if fn is None:
        return None
    ids, order, queue = {fn: 0}, [], [fn]
    while queue:
        node = queue.pop(0)
        row = []
        for nxt, nr in node.next_functions:
            if nxt is None:
                row.append(None)
                continue
            if nxt not in ids:
                ids[nxt] = len(ids)
                queue.append(nxt)
            row.append((ids[nxt], nr))
        order.append((node.name(), row))
    return order


@pytest.mark.parametrize("row, shapes", CASES)
def test_op_matches_torch(row, shapes):
    seed = zlib.crc32(f"{row.name}-{shape_id(shapes)}".encode())
    arrays = row.make_inputs(np.random.default_rng(seed), shapes)
    t_out, t_names, t_grads = _run(torch, row, arrays, seed)
    a_out, a_names, a_grads = _run(ag, row, arrays, seed)
    assert a_names == t_names
    for a, t in zip(a_out, t_out):
        assert a.shape == t.shape and a.dtype == t.dtype
        np.testing.assert_allclose(a, t, rtol=1e-10, atol=1e-12)
    for a, t in zip(a_grads, t_grads):
        np.testing.assert_allclose(a, t, rtol=1e-10, atol=1e-12)
    t32 = _as_list(row.op(torch, *[torch.tensor(a, dtype=torch.float32) for a in arrays]))
    a32 = _as_list(row.op(ag, *[ag.tensor(a, dtype=ag.float32) for a in arrays]))
    assert [repr(o.dtype) for o in a32] == [repr(o.dtype) for o in t32]


@pytest.mark.parametrize("expr, dtype", PROMOTION, ids=[e for e, _ in PROMOTION])
def test_promotion_literals_are_torchs(expr, dtype):
    assert eval(expr, {"T": torch}).dtype == getattr(torch, dtype)


@pytest.mark.parametrize("expr, name", GRAD_FN_NAMES, ids=[e for e, _ in GRAD_FN_NAMES])
def test_grad_fn_literals_are_torchs_and_graphs_match(expr, name):
    x, y = leaves(torch)
    t_out = eval(expr, {"T": torch, "x": x, "y": y})
    assert (t_out.grad_fn.name() if t_out.grad_fn is not None else None) == name
    x, y = leaves(ag)
    a_out = eval(expr, {"T": ag, "x": x, "y": y})
    assert walk(a_out) == walk(t_out)


@pytest.mark.parametrize("expr, allowed", BACKWARD_TWICE, ids=[e for e, _ in BACKWARD_TWICE])
def test_backward_twice_literals_are_torchs(expr, allowed):
    x, y = leaves(torch)
    out = eval(expr, {"T": torch, "x": x, "y": y})
    out.sum().backward()
    try:
        out.sum().backward()
        ok = True
    except RuntimeError as exc:
        assert "backward through the graph a second time" in str(exc)
        ok = False
    assert ok == allowed


@pytest.mark.parametrize("expr, text", REPRS, ids=[e for e, _ in REPRS])
def test_repr_literals_are_torchs(expr, text):
    assert repr(eval(expr, {"T": torch})) == text


@pytest.mark.parametrize("expr, expected", ENGINE_ORDER, ids=[e for e, _ in ENGINE_ORDER])
def test_engine_order_literals_are_torchs(expr, expected):
    x = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([3., 4.], requires_grad=True)
    out = eval(expr, {"T": torch, "x": x, "w": w})
    order, seen, stack = [], set(), [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        if "AccumulateGrad" in node.name():
            label = ("acc", "x" if node.variable is x else "w")
        else:
            label = node.name()
        node.register_prehook(lambda grads, label=label: order.append(label))
        stack.extend(n for n, _ in node.next_functions)
    out.backward()
    assert order == expected


def test_error_messages_match_torch():
    def message(T, fn):
        try:
            fn(T)
        except Exception as exc:  # noqa: BLE001 - comparing whatever is raised
            return type(exc).__name__, str(exc)
        return None

    def version(T):
        b = T.tensor([1., 2.], requires_grad=True)
        y = b.exp()
        y.add_(1)
        y.sum().backward()

    def freed(T):
        x = T.tensor([1., 2.], requires_grad=True)
        out = (x * x).sum()
        out.backward()
        out.backward()

    cases = [
        version, freed,
        lambda T: T.tensor([1., 2.], requires_grad=True).add_(1),
        lambda T: T.tensor([1., 2.], requires_grad=True)[0].mul_(2),
        lambda T: (T.tensor([1., 2.], requires_grad=True) * 2).backward(),
        lambda T: T.autograd.grad((T.tensor([1., 2.], requires_grad=True) ** 2).sum(),
                                  T.tensor([1.], requires_grad=True)),
        lambda T: (T.tensor([[1., 2.]], requires_grad=True) * 1).unbind()[0].mul_(2),
        lambda T: T.tensor([1., 2.]).add_(T.ones(2, 2)),
        lambda T: T.tensor([1, 2]).add_(1.5),
        lambda T: T.mm(T.ones(2, 3), T.ones(2, 3)),
    ]
    for case in cases:
        assert message(ag, case) == message(torch, case)


def test_alias_is_not_installed_here():
    assert sys.modules["torch"] is torch
