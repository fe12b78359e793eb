"""Every node of the graph view carries the editor line the page links it to (issue 12)."""
from autograd_py.playground import Session

CODE = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x * w
z = y.sum()
"""


def test_accumulate_grad_nodes_take_their_leafs_line():
    graph = Session(timeline=True).run(CODE)["graph"]
    tensors = {n["id"]: n for n in graph["nodes"] if n["kind"] == "tensor"}
    acc = [n for n in graph["nodes"] if n["kind"] == "accumulate"]
    assert sorted((tensors[n["variable"]]["names"][0], n["line"]) for n in acc) == [("w", 3), ("x", 2)]
    assert all(n["order"] is None for n in acc)  # no op recorded them


def test_without_a_timeline_nodes_have_no_line():
    graph = Session().run(CODE)["graph"]
    assert {n["line"] for n in graph["nodes"]} == {None}
