"""Gradient flow computed in Python (``graph_reach``): the graph's ``reach`` bit sets and the flow
in a graph the timeline draws at a past step."""
import json

import pytest

from autograd_py.playground.graph_reach import add_reach, gradient_flow
from autograd_py.playground.session import Session

TEN = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x * w
z = y.sum()
z.backward()
"""


def _flow(graph, node_id):
    """What the page reads off ``reach``: its own bits (down), the nodes with its bit (up)."""
    nodes = graph["nodes"]
    at = next(i for i, n in enumerate(nodes) if n["id"] == node_id)
    names = lambda ids: sorted(n.get("name") or "/".join(n["names"]) for n in nodes if n["id"] in ids)  # noqa: E731
    down = {n["id"] for i, n in enumerate(nodes) if int(nodes[at]["reach"], 16) >> i & 1}
    up = {n["id"] for n in nodes if int(n["reach"], 16) >> at & 1}
    return names(up), names(down)


def _by(graph, **fields):
    return next(n for n in graph["nodes"] if all(n.get(k) == v for k, v in fields.items()))


def test_every_node_carries_where_its_gradient_goes_and_comes_from():
    graph = Session(timeline=True).run(TEN)["graph"]
    mul = _by(graph, name="MulBackward0")
    up, down = _flow(graph, mul["id"])
    assert up == ["MulBackward0", "SumBackward0", "y", "z"]
    assert down == ["AccumulateGrad", "AccumulateGrad", "MulBackward0", "w", "x"]
    x = _by(graph, kind="tensor", names=["x"])
    assert _flow(graph, x["id"]) == (["AccumulateGrad", "MulBackward0", "SumBackward0", "x", "y", "z"], ["x"])
    # The same answer as a walk over the edges.
    walked = gradient_flow(graph["edges"], mul["id"])
    at = graph["nodes"].index(mul)
    assert sorted(walked["up"]) == sorted(n["id"] for n in graph["nodes"] if int(n["reach"], 16) >> at & 1)
    assert sorted(walked["down"]) == sorted(n["id"] for i, n in enumerate(graph["nodes"])
                                            if int(mul["reach"], 16) >> i & 1)


def test_a_detach_edge_carries_no_gradient():
    code = "import torch\nx = torch.ones(2, requires_grad=True)\na = x * 2\nb = a.detach()\nc = (b * x).sum()\n"
    graph = Session().run(code)["graph"]
    assert any(e["kind"] == "detached" for e in graph["edges"])
    up, down = _flow(graph, _by(graph, kind="tensor", names=["a"])["id"])
    assert up == ["a"] and "b" not in down and "x" in down


def test_a_deep_graph_needs_no_recursion():
    n = 3000  # three times Python's default recursion limit
    nodes = [{"id": f"n{i}"} for i in range(n)]
    edges = [{"from": f"n{i}", "to": f"n{i + 1}", "kind": "next"} for i in range(n - 1)]
    graph = add_reach({"nodes": nodes, "edges": edges})
    assert int(graph["nodes"][0]["reach"], 16) == (1 << n) - 1 and int(graph["nodes"][-1]["reach"], 16) == 1 << (n - 1)
    flow = gradient_flow(edges, f"n{n - 2}")
    assert sorted(flow["down"]) == [f"n{n - 2}", f"n{n - 1}"] and len(flow["up"]) == n - 1


LOOP = """import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
for i in range(2):
    out = ((w * i) ** 2).sum()
    out.backward()
"""


def test_flow_in_a_graph_drawn_at_a_past_step():
    session = Session(timeline=True)
    result = session.run(LOOP)
    tl = result["timeline"]
    rows = {r["id"]: r for r in tl["nodes"]}
    drawn = {n["id"] for n in result["graph"]["nodes"]}
    # The first iteration's PowBackward0 is gone by the end: the page draws it from its row.
    pow0 = next(r for r in tl["nodes"] if r["name"] == "PowBackward0" and r["id"] not in drawn)
    step = pow0["step"]

    def ask(node, at):
        return json.loads(session.request_json(json.dumps({"type": "flow", "node": node, "step": at})))

    answer = ask(pow0["id"], step)
    assert answer["ok"]
    named = lambda ids: sorted(rows[i]["name"] if i in rows else i for i in ids)  # noqa: E731
    out_id = next(t["id"] for t in tl["tensors"] if t["grad_fn"] == "SumBackward0")
    assert named(answer["up"]) == sorted(["PowBackward0", "SumBackward0", out_id])
    acc = _by(result["graph"], kind="accumulate")["id"]
    w_id = _by(result["graph"], kind="tensor", names=["w"])["id"]
    assert named(answer["down"]) == sorted(["PowBackward0", "MulBackward0", acc, w_id])
    # At the run's last step the answer is the graph's own reach.
    last = tl["steps"][-1]["step"]
    sum1 = _by(result["graph"], name="SumBackward0")
    up, _ = _flow(result["graph"], sum1["id"])
    assert sorted(ask(sum1["id"], last)["up"]) == sorted(
        n["id"] for n in result["graph"]["nodes"] if int(n["reach"], 16) >> result["graph"]["nodes"].index(sum1) & 1)
    assert ask(sum1["id"], "x")["error"]["code"] == "bad_request"


VISIBLE = ["""import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
for i in range(30):
    y = y + x
    if i % 7 == 0:
        z = (y * y).sum()
del y
z.backward()
w = x.detach() * 3
""", LOOP, TEN, """import torch
torch.manual_seed(0)
sizes = [2, 3, 1]
layers = [[([torch.randn(()).requires_grad_() for _ in range(n)], torch.zeros((), requires_grad=True))
           for _ in range(m)] for n, m in zip(sizes, sizes[1:])]
for step in range(2):
    total = None
    for x, target in zip([[1.0, -1.0], [0.5, 2.0]], [1.0, -1.0]):
        act = x
        for i, layer in enumerate(layers):
            nxt = []
            for w, b in layer:
                s = b
                for wi, xi in zip(w, act):
                    s = s + wi * xi
                h = s.tanh() if i < len(layers) - 1 else s
                nxt.append(h)
            act = nxt
        term = (act[0] - target) ** 2
        total = term if total is None else total + term
    loss = total / 2
    loss.backward()
""", """import torch
x = torch.ones(2, requires_grad=True)
u = x * 2
v = u + 1
u, v = x * 5, x * 7
a, b = u + v, u * v
a, b = b, a
a, b = b - 1, a + 1
c = a
del a
b = x
d = c * 2
b = d + 1
b = x * 3
"""]


def _visible_at(export, index):
    return {nid for nid, r in export["visible"].items()
            if any(r[k] <= index <= r[k + 1] for k in range(0, len(r), 2))}


def _walked(export, final, index):
    """A plain walk at every step: from each bound tensor's grad_fn through the rows' ``next``
    (a node without a row: its ``next`` edges in the final graph)."""
    rows = {r["id"]: r for r in export["nodes"]}
    nexts = {}
    for e in final["edges"]:
        if e["kind"] == "next":
            nexts.setdefault(e["from"], []).append(e["to"])
    names = {}
    for s in export["steps"][:index + 1]:
        for name, ref in s.get("vars", {}).items():
            if ref is None:
                names.pop(name, None)
            else:
                names[name] = export["tensors"][ref]["grad_fn_id"]
    seen, stack = set(), [fn for fn in names.values() if fn]
    while stack:
        nid = stack.pop()
        if nid not in seen:
            seen.add(nid)
            stack.extend(n for n in (rows[nid]["next"] if nid in rows else nexts.get(nid, ())) if n)
    return seen


def test_the_nodes_shown_at_each_step_are_those_the_names_reach_then():
    for code in VISIBLE:
        result = Session(timeline=True).run(code)
        export = result["timeline"]
        assert export["visible_until"] is None
        for index in range(len(export["steps"])):
            assert _visible_at(export, index) == _walked(export, result["graph"], index), (code, index)
    # The loop's first z = (y * y).sum() is unreachable once z is rebound (i = 7), its nodes too.
    export = Session(timeline=True).run(VISIBLE[0])["timeline"]
    sums = sorted((r for r in export["nodes"] if r["name"] == "SumBackward0"), key=lambda r: r["step"])
    first_z = export["visible"][sums[0]["id"]]
    rebound = next(i for i, s in enumerate(export["steps"]) if s["step"] > sums[1]["step"] - 1 and "z" in s.get("vars", {}))
    assert first_z == [first_z[0], rebound - 1]
    assert export["visible"][sums[-1]["id"]][-1] == len(export["steps"]) - 1


def test_visibility_stops_at_its_budget(monkeypatch):
    from autograd_py.playground import timeline_visible
    monkeypatch.setattr(timeline_visible, "VISIT_BUDGET", 10)
    export = Session(timeline=True).run(VISIBLE[0])["timeline"]
    until = export["visible_until"]
    assert until is not None and 0 < until < len(export["steps"])
    assert all(r[-1] < until for r in export["visible"].values())


@pytest.mark.parametrize("code", [VISIBLE[3], "import torch\ny = torch.ones(2, requires_grad=True)\n" +
                                  "y = (y + 1) * 0.5\n" * 60])
def test_visibility_visits_each_node_a_few_times(monkeypatch, code):
    """Not once per step it stays reachable at: a root let go of that a root still reaches (the old
    ``s`` of ``s = s + wi * xi``, the old ``y`` under the new ``y``'s add) costs no walk from every
    root, and a training loop's export stays linear in its length."""
    from autograd_py.playground import timeline_visible
    nodes = len(Session(timeline=True).run(code)["timeline"]["nodes"])
    monkeypatch.setattr(timeline_visible, "VISIT_BUDGET", 8 * nodes)
    export = Session(timeline=True).run(code)["timeline"]
    assert export["visible_until"] is None
