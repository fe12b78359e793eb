"""Provenance (the line and order of every node) and the timeline of a playground run."""
import gc
import json
import weakref

import pytest

from autograd_py.ops import base
from autograd_py.playground.session import Session
from autograd_py.playground.timeline_export import resolved

LOOP = """import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
for i in range(3):
    y = y + x
loss = y.sum()
loss.backward()
"""


def _nodes(result):
    return {n["id"]: n for n in result["graph"]["nodes"]}


def test_graph_nodes_carry_their_line_and_order_including_a_loop():
    r = Session(timeline=True).run(LOOP)
    assert r["ok"]
    fns = sorted((n for n in r["graph"]["nodes"] if n["kind"] == "grad_fn"), key=lambda n: n["order"])
    assert [(n["name"], n["line"], n["order"]) for n in fns] == [
        ("MulBackward0", 3, 1), ("AddBackward0", 5, 2), ("AddBackward0", 5, 3), ("AddBackward0", 5, 4),
        ("SumBackward0", 6, 5)]
    lines = {tuple(n["names"]): n["line"] for n in r["graph"]["nodes"] if n["kind"] == "tensor"}
    assert lines == {("x",): 2, ("y",): 5, ("loss",): 6}


def test_inplace_and_function_nodes_have_lines():
    code = """import torch
a = torch.ones(3, requires_grad=True)
b = a * 1
b[0] = 5.
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * t
    @staticmethod
    def backward(ctx, g):
        return g
c = Sq.apply(b)
"""
    r = Session(timeline=True).run(code)
    assert r["ok"], r["error"]
    by_name = {n["name"]: n["line"] for n in r["graph"]["nodes"] if n["kind"] == "grad_fn"}
    assert by_name["CopySlices"] == 4 and by_name["MulBackward0"] == 3 and by_name["SqBackward"] == 12


def test_steps_backward_step_and_grads_per_step():
    r = Session(timeline=True).run(LOOP)
    tl = resolved(r["timeline"])
    steps = tl["steps"]
    # 3 lines, 3 iterations of 2 steps, the check that ends the loop, 2 lines, the backward pass.
    assert tl["total_steps"] == len(steps) == 3 + 6 + 1 + 2 + 1
    assert [s["line"] for s in steps] == [1, 2, 3, 4, 5, 4, 5, 4, 5, 4, 6, 7, 7]
    back = steps[-1]
    assert back["kind"] == "backward" and back["pass"] == 1 and back["line"] == 7
    x_id = back["vars"].get("x", {}).get("id")
    assert back["grads"][x_id]["values"] == [5.0, 5.0]
    assert all(x_id not in s["grads"] or s["grads"][x_id] is None for s in steps[:-1])
    assert [len(s["nodes"]) for s in steps] == [0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0]
    # The saved tensor of MulBackward0 is freed by the pass.
    mul = next(n for n in tl["nodes"] if n["name"] == "MulBackward0")
    assert back["saved"][mul["id"]] == {"other": "freed"}
    assert tl["groups"] == [{"id": 1, "line": 4, "end": 5, "first_step": 4, "last_step": 10, "iterations": 3,
                             "shown": [[1, 4, 5], [2, 6, 7], [3, 8, 9]], "elided": None, "parent": None}]


def test_grad_call_is_a_step_of_its_own():
    code = "import torch\nx = torch.ones(2, requires_grad=True)\ng, = torch.autograd.grad((x * x).sum(), x)\n"
    steps = Session(timeline=True).run(code)["timeline"]["steps"]
    assert [(s["line"], s["kind"]) for s in steps] == [(1, "line"), (2, "line"), (3, "line"), (3, "grad")]


def test_a_10000_iteration_loop_is_grouped():
    code = "import torch\nw = torch.ones(2, requires_grad=True)\nt = 0\nfor i in range(10000):\n    t = t + i\n" \
           "loss = (w * t).sum()\nloss.backward()\n"
    r = Session(timeline=True).run(code)
    tl = resolved(r["timeline"])
    assert tl["total_steps"] == 3 + 2 * 10000 + 1 + 3
    assert tl["stored_steps"] < 60
    (group,) = tl["groups"]
    assert group["iterations"] == 10000
    assert group["elided"] == {"iterations": 9979, "steps": 19958, "from_iteration": 21, "to_iteration": 9999}
    assert [s[0] for s in group["shown"]] == list(range(1, 21)) + [10000]
    after = next(s for s in tl["steps"] if s.get("after_elided"))
    assert after["step"] == group["shown"][-1][1] and after["after_elided"] == 19958
    w_grad = tl["steps"][-1]["grads"]
    assert list(w_grad.values())[0]["values"] == [49995000.0, 49995000.0]


def test_inspect_gives_the_state_at_a_step():
    s = Session(timeline=True)
    s.run(LOOP)
    at5 = s.inspect("y", 5)
    assert at5["exact"] and at5["tensor"]["grad_fn"] == "AddBackward0"
    assert at5["tensor"]["value"]["values"] == [3.0, 6.0]
    assert s.inspect("x", 12)["tensor"]["grad"] is None
    assert s.inspect("x", 13)["tensor"]["grad"]["values"] == [5.0, 5.0]
    assert s.inspect("loss", 3)["bound"] is False
    answer = json.loads(s.request_json(json.dumps({"type": "inspect", "name": "y", "step": 3})))
    assert answer["tensor"]["value"]["text"] == "[2., 4.]"


def test_no_recorder_outside_a_run_and_the_result_is_json():
    s = Session(timeline=True)
    assert base.node_recorder[0] is None
    r = s.run(LOOP)
    assert base.node_recorder[0] is None
    json.dumps(r, allow_nan=False)
    console = s.eval_line("z = x * 3")
    assert "timeline" not in console
    assert base.node_recorder[0] is None


def test_views_and_module_calls_have_the_lines_that_made_them():
    code = """import torch
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
x = torch.ones(4, 3, requires_grad=True)
v = x[1:].t()
y = lin(v.t())
y.view(-1).sum().backward()
"""
    r = Session(timeline=True).run(code)
    assert r["ok"], r["error"]
    made = sorted((n["name"], n["line"]) for n in r["timeline"]["nodes"])
    assert made == [("AddmmBackward0", 6), ("SliceBackward0", 5), ("SumBackward0", 7), ("TBackward0", 5),
                    ("TBackward0", 6), ("TBackward0", 6), ("ViewBackward0", 7)]


def test_steps_share_a_tensors_row_while_it_is_unchanged():
    code = ("import torch\na = torch.ones(100)\nb = torch.zeros(3, requires_grad=True)\n"
            "for i in range(3):\n    for p in (a, b):\n        q = p\n")
    tl = Session(timeline=True).run(code)["timeline"]
    first = {}
    for step in tl["steps"]:
        for name, ref in step.get("vars", {}).items():
            first.setdefault(name, ref)
    rows = [s["vars"][name] for s in tl["steps"] for name in ("p", "q") if name in s.get("vars", {})]
    assert not any("nodes" in s or "saved" in s or "grads" in s for s in tl["steps"])  # empty: left out
    assert len(rows) == 12 and set(rows) == {first["a"], first["b"]} and first["a"] != first["b"]
    a = tl["tensors"][first["a"]]
    assert a["shape"] == [100] and tl["previews"][a["value"]]["truncated"]
    assert len(tl["tensors"]) == 2 and len(tl["previews"]) == 2  # each summary and preview sent once
    json.dumps(tl)


RUNS_THAT_HOLD_FRAMES = {
    "a backward pass": LOOP,
    "an error inside a long loop": """import torch
x = torch.ones(2, requires_grad=True)
for i in range(40):
    y = (x * i).sum()
    y.backward()
    if i == 30:
        raise ValueError("stop")
""",
    "a loop in a function": """import torch
def train(steps):
    w = torch.ones(2, requires_grad=True)
    for _ in range(steps):
        (w * w).sum().backward()
    return w
w = train(30)
""",
}


@pytest.mark.parametrize("name", RUNS_THAT_HOLD_FRAMES)
def test_a_finished_run_is_freed_without_the_collector(name):
    """The recorder follows the run's frames, and a frame holds its caller's (the session's, so the
    timeline); kept after the run, they would make all that the run recorded one reference cycle,
    left for a full collection during a later run. Without the collector, the next run frees it."""
    session = Session(timeline=True)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        session.run_json(RUNS_THAT_HOLD_FRAMES[name])
        timeline = weakref.ref(session._timeline)
        provenance = weakref.ref(session._provenance)
        session.run_json("z = 1")
        assert timeline() is None and provenance() is None
    finally:
        if enabled:
            gc.enable()


ENDS_IN_A_LOOP = """import torch
x = torch.ones(2, requires_grad=True)
for i in range(40):
    y = (x * i).sum()
"""


@pytest.mark.parametrize("code", [RUNS_THAT_HOLD_FRAMES["an error inside a long loop"], ENDS_IN_A_LOOP])
def test_a_run_whose_recorder_failed_in_a_loop_is_freed_without_the_collector(monkeypatch, code):
    """A recorder that fails (``Timeline.fail``) leaves its loop runs open, frames and all (an error
    of the run's own clears the frames its traceback went through, a run that ends well does not)."""
    from autograd_py.playground.timeline import Timeline

    def broken(self):
        raise RuntimeError("a recorder bug")
    monkeypatch.setattr(Timeline, "finish", broken)
    session = Session(timeline=True)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        result = session.run(code)
        assert result["timeline"]["error"] == "RuntimeError: a recorder bug"
        assert session._timeline.active and session._timeline.held is not None  # what the case is about
        timeline = weakref.ref(session._timeline)
        session.run_json("z = 1")
        assert timeline() is None
    finally:
        if enabled:
            gc.enable()


def test_a_recorded_run_makes_full_collections_rarer_till_it_ends():
    """What a run records lives to its end, and full collections walk it all: they come ten times
    rarer while it records, and the collector is as it was after (or as the run set it)."""
    before = gc.get_threshold()
    try:
        session = Session(timeline=True)
        assert session.run("import gc\nseen = gc.get_threshold()")["ok"]
        assert session.namespace["seen"] == (before[0], before[1], 10 * before[2])
        assert gc.get_threshold() == before
        unrecorded = Session(timeline=False)  # (an embed's)
        assert unrecorded.run("import gc\nseen = gc.get_threshold()")["ok"]
        assert unrecorded.namespace["seen"] == before
        assert session.run("import gc\ngc.set_threshold(500, 5, 5)")["ok"]
        assert gc.get_threshold() == (500, 5, 5)
    finally:
        gc.set_threshold(*before)
