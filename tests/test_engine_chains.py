"""Chains of plain nodes run in one call (``numpy_backward.run`` given the pass's state) give what
the engine gives node by node: the same gradients (bits, dtypes, versions), the same node order
(PyTorch's ready queue), every node freed, and the engine's way back wherever something watches a
node: hooks, retain_grad, grad()'s inputs, a node waiting in the ready queue, the step-through
listener."""
import random

import numpy as np
import pytest

import autograd_py as torch
from autograd_py import numpy_backward

import numpy_path_spy
from ready_queue_model import ready_order


class _Logged(torch.autograd.Function):
    """An identity whose backward (never a NumPy formula, so a chain's end) logs when it runs."""

    log = []

    @staticmethod
    def forward(ctx, a):
        ctx.tag = len(_Logged.log)
        return a * 1.0

    @staticmethod
    def backward(ctx, g):
        _Logged.log.append(("fn", ctx.tag))
        return g


def _one_by_one(node, grads, chain=None):
    out = _run(node, grads)  # this node only
    return out if chain is None else (node, out)


_run = numpy_backward.run


def _graph(seed):
    """A random graph of chains (unary ops, products and sums with numbers) that branch and join."""
    rnd = random.Random(seed)
    dtype = rnd.choice([torch.float32, torch.float64])
    shape = rnd.choice([(), (3,), (2, 3)])
    np_rng = np.random.default_rng(seed)
    leaves = [torch.tensor(np_rng.uniform(-1, 1, shape), dtype=dtype, requires_grad=True) for _ in range(2)]
    vals = list(leaves)
    unary = [torch.sin, torch.tanh, torch.exp, torch.sigmoid, lambda v: v * 1.5, lambda v: v + 0.25,
             lambda v: v - 0.5, lambda v: 2.0 * v, lambda v: -v, lambda v: v.cos(),
             # a gradient summed back to the input's shape (the node's input metadata) mid-chain
             lambda v: (v * spread).sum(0)]
    spread = torch.tensor(np_rng.uniform(-1, 1, (2,) + shape), dtype=dtype)
    for _ in range(rnd.randint(3, 40)):
        k = rnd.random()
        a = rnd.choice(vals[-3:]) if rnd.random() < .8 else rnd.choice(vals)
        if k < .75:
            v = a
            for _ in range(rnd.randint(1, 6)):
                v = rnd.choice(unary)(v)
        elif k < .85:
            v = a * rnd.choice(vals)
        elif k < .95:
            v = a + rnd.choice(vals)
        else:
            v = _Logged.apply(a)
        vals.append(v)
    inner = vals[len(leaves):]
    roots = rnd.sample(inner, min(len(inner), rnd.randint(1, 3)))
    return rnd, leaves, inner, roots


def _pass(seed, watch):
    """Backward (or grad) on graph ``seed``; returns what a learner could observe."""
    _Logged.log = []
    rnd, leaves, inner, roots = _graph(seed)
    seen = []
    with pytest.MonkeyPatch.context() as patch:
        ran = numpy_path_spy.record(patch, lambda node: ("np", node._seq))
        if watch == "hooks":
            for t in rnd.sample(inner, min(3, len(inner))):
                t.register_hook(lambda g, t=t: seen.append(g._data.tobytes()))
            some = rnd.choice(inner)
            some.retain_grad()
            for t in rnd.sample(inner, min(3, len(inner))):
                t.grad_fn.register_hook(lambda gi, go: seen.append([g is not None and g._data.tobytes() for g in gi]))
        if watch == "grad":
            wrt = leaves + rnd.sample(inner, min(2, len(inner)))
            got = torch.autograd.grad([r.sum() for r in roots], wrt, allow_unused=True, retain_graph=True)
        else:
            torch.autograd.backward([r.sum() for r in roots])
            got = [t.grad for t in leaves] + ([some.grad] if watch == "hooks" else [])
    freed = [r.grad_fn is not None and r.grad_fn._freed for r in inner]
    grads = [None if g is None else (g._data.tobytes(), g._data.dtype, g._data.shape, g._version) for g in got]
    base = min(r.grad_fn._seq for r in inner)  # sequence numbers count on across passes
    ran = [(kind, s - base) for kind, s in ran]
    return grads, ran + _Logged.log, seen, freed, (roots, base)


@pytest.mark.parametrize("watch", ["nothing", "hooks", "grad"])
def test_chained_passes_match_the_engine_node_by_node(monkeypatch, watch):
    chained = [_pass(seed, watch)[:4] for seed in range(120)]
    monkeypatch.setattr(numpy_backward, "run", _one_by_one)
    single = [_pass(seed, watch)[:4] for seed in range(120)]
    for seed, (a, b) in enumerate(zip(chained, single)):
        assert a == b, seed


def test_chained_nodes_run_in_the_ready_queues_order():
    for seed in range(120):
        _, ran, _, _, (roots, base) = _pass(seed, "nothing")
        # the model's order of the nodes that ran on NumPy data or logged (the others are silent)
        _Logged.log = []
        expected = [n._seq - base for n in ready_order([(r.sum().grad_fn, 0) for r in roots])]
        got = [s for kind, s in ran if kind == "np"]
        assert got == [s for s in expected if s in set(got)], seed


def test_a_chain_of_a_thousand_ops_is_one_call_and_frees_every_node(monkeypatch):
    calls = []
    monkeypatch.setattr(numpy_backward, "run", lambda *a: (len(a) > 2 and calls.append(a[0])) or _run(*a))
    x = torch.tensor([0.1, 0.2], dtype=torch.float64, requires_grad=True)
    y, nodes = x, []
    for _ in range(200):
        y = torch.exp(torch.tanh(torch.sin(y * 1.0001 + 0.001)))
        nodes.append(y.grad_fn)
    y.sum().backward()
    assert len(calls) == 1
    assert all(n._freed for n in nodes)
    expected = np.ones(2)
    v = np.array([0.1, 0.2])
    forward = []
    for _ in range(200):
        a = v * 1.0001 + 0.001
        s = np.sin(a)
        t = np.tanh(s)
        forward.append((a, t, np.exp(t)))
        v = np.exp(t)
    for a, t, e in reversed(forward):
        expected = expected * e * (1.0 - t * t) * np.cos(a) * 1.0001
    np.testing.assert_allclose(x.grad._data, expected, rtol=1e-12)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.sum().backward()


def test_the_step_through_listener_sees_every_node_of_a_chain():
    from autograd_py import engine
    x = torch.tensor([0.5], requires_grad=True)
    y = torch.exp(torch.tanh(torch.sin(x * 2.0)))
    names = []
    old = engine.set_listener(lambda ev: names.append(ev.get("name")) if ev["event"] == "node" else None)
    try:
        y.sum().backward()
    finally:
        engine.set_listener(old)
    assert names == ["SumBackward0", "ExpBackward0", "TanhBackward0", "SinBackward0", "MulBackward0"]


def test_a_value_modified_in_place_mid_chain_raises_pytorchs_error():
    x = torch.tensor([0.5, 0.25], requires_grad=True)
    b = torch.exp(torch.sin(x * 2.0))  # ExpBackward0 saves its result
    c = torch.tanh(b)
    b.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        c.sum().backward()


def test_a_gradient_handed_on_as_it_is_stays_the_learners_tensor():
    # SubBackward0 hands its gradient on as it is; PyTorch 2.13's grad() then returns the very
    # tensor given (``r is gradient``), and backward() copies it into the leaf's .grad
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    gradient = torch.tensor([0.5, 0.25], dtype=torch.float64)
    r, = torch.autograd.grad((x - 0.5) - 0.25, x, gradient)
    assert r is gradient
    ((x - 0.5) - 0.25).backward(gradient)
    assert x.grad.tolist() == [0.5, 0.25] and x.grad.data_ptr() != gradient.data_ptr()
