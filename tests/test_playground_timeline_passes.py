"""Every backward pass of a run opens in the step-through (``timeline_passes``), not only the last."""
import json

import numpy as np

from autograd_py.node import Node
from autograd_py.playground import timeline_passes
from autograd_py.playground.session import Session

LOOP = """import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(3):
    loss = (w * w * (i + 1)).sum()
    loss.backward()
print(w.grad)
"""


def _pass(session, number):
    return json.loads(session.request_json(json.dumps({"type": "pass", "pass": number})))


def _accumulated(trace):
    return [s["grad"]["values"] for s in trace["steps"] if s["event"] == "accumulate"]


def test_each_pass_of_a_loop_opens_with_its_own_gradients():
    session = Session(timeline=True)
    result = session.run(LOOP)
    timeline = result["timeline"]
    passes = [s for s in timeline["steps"] if s["kind"] == "backward"]
    assert [s["pass"] for s in passes] == [1, 2, 3] and timeline["passes_kept"] == [1, 2, 3]
    w = np.array([1.0, 2.0])
    for number in (1, 2, 3):
        answer = _pass(session, number)
        assert answer["ok"] and "graph" not in answer  # kept: no replay
        trace = answer["trace"]
        assert (trace["pass"], trace["line"], trace["dropped"]) == (number, 5, 0)
        # d/dw sum(w * w * (i + 1)) = 2 (i + 1) w: each pass's own, not the accumulated .grad
        assert _accumulated(trace) == [(2 * number * w).tolist()]
        assert [s["event"] for s in trace["steps"]] == ["begin", "node", "node", "node", "accumulate", "end"]
        assert [s["name"] for s in trace["steps"] if s["event"] == "node"] == ["SumBackward0", "MulBackward0",
                                                                               "MulBackward0"]
    last = _pass(session, 3)["trace"]
    assert last["steps"] == result["trace"]["steps"] and last["roots"] == result["trace"]["roots"]


def test_a_passs_node_ids_are_those_the_timeline_draws_at_its_step():
    session = Session(timeline=True)
    timeline = session.run(LOOP)["timeline"]
    visible = timeline["visible"]
    names = {n["id"]: n["name"] for n in timeline["nodes"]}
    for index, step in enumerate(timeline["steps"]):
        if step["kind"] != "backward":
            continue
        trace = _pass(session, step["pass"])["trace"]
        ids = [s["node"] for s in trace["steps"] if s["event"] == "node"]
        assert trace["roots"] == ids[:1]
        for nid, name in zip(ids, ("SumBackward0", "MulBackward0", "MulBackward0")):
            assert names[nid] == name
            ranges = visible[nid]
            assert any(ranges[k] <= index <= ranges[k + 1] for k in range(0, len(ranges), 2)), (nid, index)
        # the nodes of one pass are not another's (a loop makes its graph anew)
        assert len(set(ids)) == 3
    firsts = {_pass(session, n)["trace"]["roots"][0] for n in (1, 2, 3)}
    assert len(firsts) == 3


def test_kept_passes_hold_no_node_objects():
    session = Session(timeline=True)
    session.run(LOOP)
    kept = session._timeline.passes
    for entry in kept.kept.values():
        stack = [entry["events"]]
        while stack:
            value = stack.pop()
            assert not isinstance(value, Node)
            if isinstance(value, dict):
                stack.extend(value.values())
            elif isinstance(value, (list, tuple)):
                stack.extend(value)


RANDOM = """import torch
w = torch.randn(3, requires_grad=True)
for i in range(5):
    x = torch.randn(3)
    loss = (w * x).sum() * (i + 1)
    loss.backward()
"""


def test_a_pass_past_the_budget_opens_by_running_the_code_again(monkeypatch):
    streamed = []
    session = Session(timeline=True, on_output=lambda stream, text: streamed.append(text))
    monkeypatch.setattr(timeline_passes, "PASS_LIMIT", 2)
    first = session.run(RANDOM)
    assert first["timeline"]["passes_kept"] == [1, 2]  # (the last pass is the run's own trace)
    kept = {n: _accumulated(_pass(session, n)["trace"]) for n in (1, 2)}
    streamed.clear()
    answer = _pass(session, 3)
    assert streamed == []  # the console shows the first run's output already
    assert answer["ok"] and "graph" in answer and answer["timeline"]  # the replay's run replaces the last
    step = next(s for s in answer["timeline"]["steps"] if s.get("pass") == 3)
    assert answer["replay"] == {"pass": 3, "step": step["step"], "same": True}
    trace = answer["pass_trace"]
    assert trace["pass"] == 3 and trace["line"] == 6 and len(_accumulated(trace)[0]) == 3
    assert answer["timeline"]["passes_kept"] == [1, 2, 3]
    assert _accumulated(_pass(session, 1)["trace"]) == kept[1]  # pass 1 is still the first run's
    assert _accumulated(_pass(session, 3)["trace"]) == _accumulated(trace)  # kept now: no replay
    assert "graph" not in _pass(session, 3)
    assert session.pass_focus is None and session.timeline_focus is None


def test_a_replayed_pass_is_the_first_runs_pass():
    session = Session(timeline=True)
    session.run(RANDOM)
    expected = _accumulated(_pass(session, 4)["trace"])
    session._timeline.passes.kept.pop(4)  # as if the budget had turned it away
    answer = _pass(session, 4)
    # Unseeded random numbers: the replay starts from the first run's generator state.
    assert "graph" in answer and _accumulated(answer["pass_trace"]) == expected
    assert answer["replay"]["same"]


GRAD = """import torch
x = torch.tensor([3.0], requires_grad=True)
y = x ** 3
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
g.sum().backward()
"""


def test_grad_and_backward_passes_each_open():
    session = Session(timeline=True)
    result = session.run(GRAD)
    kinds = [(s["kind"], s["pass"]) for s in result["timeline"]["steps"] if s["kind"] != "line"]
    assert kinds == [("grad", 1), ("backward", 2)]
    first, second = _pass(session, 1)["trace"], _pass(session, 2)["trace"]
    assert first["line"] == 4 and second["line"] == 5
    assert _accumulated(first) == []  # autograd.grad captures, it accumulates nothing
    assert _accumulated(second) == [[18.0]]  # d/dx 3x^2 = 6x
    assert first["steps"] != second["steps"]


def test_pass_requests_without_a_timeline_or_a_number():
    session = Session(timeline=True)
    assert _pass(session, 1)["error"]["code"] == "no_timeline"
    session.run(LOOP)
    bad = json.loads(session.request_json(json.dumps({"type": "pass", "pass": "2"})))
    assert bad["request_error"] and bad["error"]["code"] == "bad_request"
    assert _pass(session, 4) == {"ok": True, "pass": 4, "trace": None}  # no such pass: no replay


def test_the_kept_passes_are_the_first_ones_whose_gradient_copies_fit(monkeypatch):
    session = Session(timeline=True)
    session.run(LOOP)
    per_pass = session._timeline.passes.used // 3
    monkeypatch.setattr(timeline_passes, "PASS_BYTES", 2 * per_pass)
    assert session.run(LOOP)["timeline"]["passes_kept"] == [1, 2]
    monkeypatch.setattr(timeline_passes, "PASS_BYTES", 2 * per_pass - 1)
    assert session.run(LOOP)["timeline"]["passes_kept"] == [1]
    assert session._timeline.passes.used == per_pass
