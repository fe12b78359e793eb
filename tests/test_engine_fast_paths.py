"""The engine's shortcuts for plain nodes give what its general path gives: AddBackward0 without
its call, one flag for every hook kind, and NumPy-data formulas that step aside for freed nodes."""
import random

import numpy as np
import pytest

import autograd_py as torch
from autograd_py import engine, numpy_backward

from ready_queue_model import ready_order


def _random_pass(seed, create_graph=False):
    """Runs backward on a random scalar graph; returns the leaves' grads (values, versions) and the node order."""
    rnd = random.Random(seed)
    leaves = [torch.tensor(rnd.uniform(-1, 1), dtype=torch.float64, requires_grad=True) for _ in range(3)]
    leaves.append(torch.tensor([rnd.uniform(-1, 1) for _ in range(3)], requires_grad=True))
    vals = list(leaves)
    for _ in range(rnd.randint(5, 40)):
        k, a, b = rnd.random(), rnd.choice(vals), rnd.choice(vals)
        if k < .3:
            vals.append(a + b)
        elif k < .4:
            vals.append(torch.add(a, b, alpha=2.5))
        elif k < .7:
            vals.append(a * b)
        else:
            vals.append(a.tanh())
    loss = sum(v.sum() for v in rnd.sample(vals[len(leaves):], 3))
    ran = []
    old = engine.set_listener(lambda ev: ran.append(ev.get("name")) if ev["event"] in ("node", "accumulate") else None)
    try:
        if create_graph:  # grad(), not backward(): backward's create_graph warning is once per process
            got = torch.autograd.grad(loss, leaves, create_graph=True, allow_unused=True)
        else:
            loss.backward()
            got = [t.grad for t in leaves]
    finally:
        engine.set_listener(old)
    grads = [None if g is None else (g._data.tobytes(), g._data.shape, g._version, g.requires_grad) for g in got]
    return grads, ran


class _NotAdd:
    """Stands in for AddBackward0 in the engine, so that every sum runs its formula through _apply."""


@pytest.mark.parametrize("create_graph", [False, True])
def test_sums_handed_on_without_their_call_match_their_formula(monkeypatch, create_graph):
    fast = [_random_pass(seed, create_graph) for seed in range(60)]
    monkeypatch.setattr(engine, "AddBackward0", _NotAdd)
    general = [_random_pass(seed, create_graph) for seed in range(60)]
    assert fast == general
    assert any("AddBackward0" in ran for _, ran in fast)


def test_a_broadcast_sum_still_sums_its_gradient_to_each_inputs_shape():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = torch.tensor([0.5, 0.25], requires_grad=True)
    ((x + b) * 3.0).sum().backward()
    assert b.grad.tolist() == [6.0, 6.0] and x.grad.tolist() == [[3.0, 3.0], [3.0, 3.0]]


def test_a_hook_registered_during_the_pass_on_a_node_still_to_run_is_called():
    seen = []

    class Registers(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1.0

        @staticmethod
        def backward(ctx, g):
            # the node below this one has not run yet: its flag goes up now, and the engine sees it
            inner.grad_fn.register_prehook(lambda grads: seen.append("pre") or (grads[0] * 2.0,))
            inner.grad_fn.register_hook(lambda gi, go: seen.append("post"))
            inner.register_hook(lambda grad: seen.append("tensor"))
            return g

    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    inner = (x * 3.0).sin()
    Registers.apply(inner).sum().backward()
    assert seen == ["tensor", "pre", "post"]
    assert np.array_equal(x.grad._data, (2.0 * np.cos(np.array([3.0, 6.0]))) * 3.0)


def test_flags_raised_by_retain_grad_and_removed_hooks_keep_the_plain_result():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = x * 2.0
    assert not y.grad_fn._special
    y.retain_grad()
    assert y.grad_fn._special and y.grad_fn._retain_grad_refs
    z = y.tanh()
    z.grad_fn.register_hook(lambda gi, go: None).remove()
    assert z.grad_fn._special
    z.sum().backward()
    assert np.array_equal(y.grad._data, 1 - np.tanh(np.array([2.0, 4.0])) ** 2)
    assert np.array_equal(x.grad._data, 2.0 * y.grad._data)


def test_a_freed_node_that_saved_only_a_number_raises_the_freed_error_on_either_path(monkeypatch):
    calls = []
    original = numpy_backward.run
    monkeypatch.setattr(numpy_backward, "run", lambda node, grads: calls.append(node) or original(node, grads))
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    s = (x * 2.0).sum()
    s.backward()
    assert calls
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        s.backward()


class _NoGradForInput(torch.autograd.Function):
    """Hands no gradient to its input, so the node behind it sees None arrive."""

    @staticmethod
    def forward(ctx, a):
        return a * 1.0

    @staticmethod
    def backward(ctx, g):
        return None


def test_none_gradients_through_one_edge_and_through_a_buffer_of_several():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    _NoGradForInput.apply(x * 2.0).sum().backward()  # the one edge into MulBackward0 brings None
    assert x.grad is None
    a = x * 2.0  # two edges in: None from the Function, 3.0 from the product, in either order
    (_NoGradForInput.apply(a).sum() + (a * 3.0).sum()).backward()
    assert x.grad.tolist() == [6.0, 6.0] and x.grad._version == 0
    x.grad = None
    a = x * 2.0  # three edges in, None the second (torch 2.13 gives the same values and versions)
    ((a * 3.0).sum() + _NoGradForInput.apply(a).sum() + (a * 4.0).sum()).backward()
    assert x.grad.tolist() == [14.0, 14.0] and x.grad._version == 0


def test_several_roots_hand_their_gradients_on_in_the_ready_queues_order():
    # the roots' edges go through the same ready slots (alone, second, heap) as a node's edges
    for trial in range(150):
        rnd = random.Random(trial)
        leaves = [torch.tensor(rnd.uniform(-1, 1), requires_grad=True) for _ in range(rnd.randint(1, 4))]
        vals = list(leaves)
        for _ in range(rnd.randint(2, 30)):
            k, a, b = rnd.random(), rnd.choice(vals), rnd.choice(vals[-4:])
            vals.append(a * b if k < .4 else a + b if k < .8 else a.tanh())
        roots = [rnd.choice(vals[len(leaves):]) for _ in range(rnd.randint(2, 4))]
        expected = [id(n) for n in ready_order([(r.grad_fn, 0) for r in roots])]
        ran = []
        old = engine.set_listener(lambda ev: ran.append(ev["node"]) if ev["event"] in ("node", "accumulate") else None)
        try:
            torch.autograd.backward(roots, [torch.ones_like(r) for r in roots])
        finally:
            engine.set_listener(old)
        assert ran == expected, trial
