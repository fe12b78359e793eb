"""The JSON graph export that the graph view and gradient panel render."""
import json

import autograd_py as T
from autograd_py.playground import graph


def _by_id(g):
    return {n["id"]: n for n in g["nodes"]}


def _grad_fn_of(g, name):
    node_id = next(e["to"] for e in g["edges"] if e["kind"] == "grad_fn" and e["from"] in
                   {t["id"] for t in g["tensors"] if name in t["names"]})
    return _by_id(g)[node_id]


def test_seed_mm_graph_names_and_edges():
    x = T.ones(2, 3, requires_grad=True)
    a = T.ones(3, 4)
    out = T.mm(x, a)
    g = graph.export({"x": x, "a": a, "out": out})
    json.dumps(g)  # plain JSON, nothing else
    mm = _grad_fn_of(g, "out")
    assert mm["name"] == "MmBackward0"
    nexts = [e for e in g["edges"] if e["from"] == mm["id"] and e["kind"] == "next"]
    assert [e["input_nr"] for e in nexts] == [0]  # `a` does not require grad: no edge
    acc = _by_id(g)[nexts[0]["to"]]
    assert acc["kind"] == "accumulate" and acc["variable"] == f"t{id(x)}"
    assert {"from": acc["id"], "to": f"t{id(x)}", "kind": "variable"} in g["edges"]


def test_duplicate_inputs_keep_two_ordered_edges():
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    g = graph.export({"x": x, "y": y})
    mul = _grad_fn_of(g, "y")
    nexts = [e for e in g["edges"] if e["from"] == mul["id"] and e["kind"] == "next"]
    assert [e["input_nr"] for e in nexts] == [0, 1]
    assert nexts[0]["to"] == nexts[1]["to"]


def test_saved_tensors_alive_then_freed_after_backward():
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 2).sum()
    pow_node = y.grad_fn.next_functions[0][0]
    assert [(s["name"], s["state"]) for s in graph.describe_node(pow_node)["saved"]] == [("self", "alive")]
    y.backward()
    assert {s["state"] for s in graph.describe_node(pow_node)["saved"]} == {"freed"}
    assert graph.describe_node(pow_node)["freed"] is True


def test_modified_in_place_is_reported():
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    node = y.grad_fn
    y.add_(1)
    saved = graph.describe_node(node)["saved"]
    assert saved == [{"name": "result", "state": "modified", "shape": [2], "version": 0,
                      "value": saved[0]["value"]}]


def test_detach_shows_a_link_to_its_source():
    x = T.tensor(2.0, requires_grad=True)
    y = x * x
    u = y.detach()
    g = graph.export({"x": x, "y": y, "u": u})
    assert {"from": f"t{id(u)}", "to": f"t{id(y)}", "kind": "detached"} in g["edges"]
    row = next(t for t in g["tensors"] if t["names"] == ["u"])
    assert row["requires_grad"] is False and row["grad_reason"] == "does not require grad"


def test_grad_reasons_in_the_panel():
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y.sum()
    rows = {t["names"][0]: t for t in graph.export({"x": x, "y": y, "z": z})["tensors"]}
    assert rows["x"]["grad_reason"] == "not computed yet"
    assert rows["y"]["grad_reason"] == "non-leaf, call retain_grad()"
    z.backward()
    rows = {t["names"][0]: t for t in graph.export({"x": x, "y": y})["tensors"]}
    assert rows["x"]["grad"]["values"] == [2.0, 2.0] and rows["x"]["grad_reason"] is None


def test_module_parameters_are_named():
    class Fake:
        def named_parameters(self):
            return [("weight", w)]
    w = T.ones(2, requires_grad=True)
    names = [t["names"] for t in graph.export({"model": Fake()})["tensors"]]
    assert names == [["model.weight"]]


def test_ten_thousand_node_chain_exports_without_recursion_and_collapses():
    x = T.tensor([0.5], requires_grad=True)
    y = x
    for _ in range(10_000):
        y = y * 1.0001
    g = graph.export({"x": x, "y": y}, budget=200)
    assert len(g["nodes"]) <= 200
    assert g["truncated"]["total"] > 10_000
    block = next(n for n in g["nodes"] if n["kind"] == "collapsed")
    assert block["ops"] == {"MulBackward0": block["count"]} and block["count"] > 9_000


def test_cut_when_collapsing_is_not_enough():
    xs = [T.tensor([float(i)], requires_grad=True) for i in range(300)]
    total = xs[0]
    for x in xs[1:]:
        total = total + x  # every AddBackward0 has two inputs: nothing to collapse
    g = graph.export({"total": total}, budget=100)
    assert len(g["nodes"]) <= 101
    assert g["truncated"]["cut"] > 0
    assert any(n["kind"] == "cut" for n in g["nodes"])


def test_formula_is_the_backward_source():
    x = T.tensor([1.0], requires_grad=True)
    info = graph.describe_node(x.exp().grad_fn)
    assert "def backward" in info["formula"] and 'self.saved("result")' in info["formula"]


def test_trace_records_steps_in_engine_order():
    from autograd_py.playground import trace
    x = T.tensor([1.0, 2.0], requires_grad=True)
    w = T.tensor([3.0, 4.0], requires_grad=True)
    y = (x * w).exp()
    y.register_hook(lambda g: g * 2)
    with trace.record() as steps:
        y.sum().backward()
    events = [(s["event"], s.get("name")) for s in steps]
    assert events == [("begin", None), ("node", "SumBackward0"), ("hook", None), ("node", "ExpBackward0"),
                      ("node", "MulBackward0"), ("accumulate", None), ("accumulate", None), ("end", None)]
    mul = steps[4]
    assert [o["input_nr"] for o in mul["grads_out"]] == [0, 1]
    assert mul["freed"] is True
    json.dumps(steps)
    assert T.autograd.grad((x * 2).sum(), x)[0].tolist() == [2.0, 2.0]  # listener removed afterwards
