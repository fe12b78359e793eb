"""A retained graph walked again from the same node to the same inputs reuses its analysis
(graph_plan), and gives what a fresh analysis gives."""
import gc

import numpy as np

import autograd_py as T
from autograd_py import graph_plan

W = np.arange(12.0).reshape(4, 3) / 7


def _counting(monkeypatch):
    walks = []
    for name in ("collect", "collect_for"):
        def counting(root, *args, _original=getattr(graph_plan, name)):
            walks.append(type(root).__name__)  # not the root: it would keep the graph alive
            return _original(root, *args)

        monkeypatch.setattr(graph_plan, name, counting)
    return walks


def test_the_walk_finds_the_nodes_on_a_path_to_an_input():
    rng = np.random.default_rng(5)
    leaves = [T.tensor(rng.uniform(-1, 1, 2), requires_grad=True) for _ in range(4)]
    values = list(leaves)
    for _ in range(40):  # a random DAG of products and sums, some values used many times
        a, b = (values[i] for i in rng.integers(0, len(values), 2))
        values.append(a * b if rng.random() < 0.5 else (a + b).sin())
    root = sum(values[-6:]).sum()
    nodes, stack = set(), [root.grad_fn]
    while stack:
        n = stack.pop()
        if n not in nodes:
            nodes.add(n)
            stack.extend(m for m, _ in n.next_functions if m is not None)
    for chosen in ([leaves[0]], leaves[1:3], [values[10], leaves[3]], leaves, [values[10]] + leaves):
        targets = {t.grad_fn or t._get_accumulator() for t in chosen}

        def reaches(n):
            seen, todo = set(), [n]
            while todo:
                m = todo.pop()
                if m in targets:
                    return True
                if m not in seen:
                    seen.add(m)
                    todo.extend(c for c, _ in m.next_functions if c is not None)
            return False

        from autograd_py.node import GraphRoot
        groot = GraphRoot([(root.grad_fn, 0)], [None])
        deps, order = graph_plan.collect(groot, True)
        assert set(order) == nodes | {groot} and set(deps) == nodes
        needed = graph_plan.needed_nodes(order, targets)
        assert needed - {groot} == {n for n in nodes if reaches(n)}
        assert graph_plan.collect_for(groot, targets) == (deps, order, needed)


def test_jacobian_rows_reuse_the_walk_from_the_third_row(monkeypatch):
    walks = _counting(monkeypatch)
    x = T.tensor([0.3, -0.2, 0.9], dtype=T.float64, requires_grad=True)
    y = T.tanh(T.tensor(W) @ x)
    eye = T.eye(4, dtype=T.float64)
    rows = [T.autograd.grad(y, x, eye[i], retain_graph=True)[0].numpy() for i in range(4)]
    assert len(walks) == 2  # the first pass, then the second, which keeps its analysis
    t = np.tanh(W @ x.detach().numpy())
    np.testing.assert_allclose(np.stack(rows), (1 - t * t)[:, None] * W, rtol=1e-15, atol=1e-15)


def test_other_inputs_another_root_or_a_freed_first_node_walk_again(monkeypatch):
    walks = _counting(monkeypatch)
    x = T.tensor([0.3, -0.2, 0.9], dtype=T.float64, requires_grad=True)
    w = T.tensor([1.0, 2.0, 3.0], dtype=T.float64, requires_grad=True)
    y = (x * w).sin().sum()
    for _ in range(3):
        T.autograd.grad(y, x, retain_graph=True)
    assert len(walks) == 2
    gx, = T.autograd.grad(y, w, retain_graph=True)  # other inputs
    assert len(walks) == 3
    np.testing.assert_array_equal(gx.numpy(), (np.cos(x.detach().numpy() * w.detach().numpy()) *
                                               x.detach().numpy()))
    z = y * 2.0
    T.autograd.grad(z, x, retain_graph=True)  # another root node
    assert len(walks) == 4
    del y, z
    gc.collect()
    assert graph_plan._plan[0] is None


def test_a_node_with_other_edges_than_the_plan_kept_is_walked_again(monkeypatch):
    walks = _counting(monkeypatch)
    x = T.tensor([0.3, -0.2], dtype=T.float64, requires_grad=True)
    y = (x * 3.0).exp().sum()
    for _ in range(3):
        T.autograd.grad(y, x, retain_graph=True)
    assert len(walks) == 2
    mul = y.grad_fn.next_functions[0][0].next_functions[0][0]
    mul._next_functions = ((None, 0), (None, 0))  # what no op does after recording: a changed edge
    g, = T.autograd.grad(y, x, retain_graph=True, allow_unused=True)
    assert len(walks) == 3 and g is None


def test_the_plan_holds_the_graph_no_longer_than_its_first_node():
    x = T.tensor([0.3, -0.2], dtype=T.float64, requires_grad=True)
    y = (x * 3.0).exp().sum()
    for _ in range(3):
        T.autograd.grad(y, x, retain_graph=True)
    plan = graph_plan._plan[0]
    assert plan is not None and plan.first() is y.grad_fn and plan.deps is not None
    del y
    gc.collect()
    assert graph_plan._plan[0] is None


def test_a_pass_never_repeated_makes_no_plan_and_holds_nothing(monkeypatch):
    import weakref
    walks = _counting(monkeypatch)
    x = T.tensor([0.3, -0.2, 0.9], dtype=T.float64, requires_grad=True)
    graph_plan._plan[0] = None
    firsts = []
    for i in range(5):  # W5: a create_graph pass from a fresh graph each time, then a plain one
        y = (x ** 3 * T.sin(x)).sum()
        firsts.append(weakref.ref(y.grad_fn))
        (g,) = T.autograd.grad(y, x, create_graph=True)
        (h,) = T.autograd.grad(g.sum(), x)
        assert graph_plan._plan[0] is None
        del y, g
        gc.collect()
        assert firsts[-1]() is None  # what the last pass noted keeps no node alive
        xd = x.detach().numpy()
        np.testing.assert_allclose(h.numpy(), 6 * xd * np.sin(xd) + 6 * xd ** 2 * np.cos(xd) - xd ** 3 * np.sin(xd))
    assert len(walks) == 10
    y = (x * x).sum()
    for _ in range(3):
        T.autograd.grad(y, x, retain_graph=True)
    assert len(walks) == 12 and graph_plan._plan[0].first() is y.grad_fn
