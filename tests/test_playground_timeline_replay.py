"""Opening a folded loop iteration by replaying the run (``timeline_replay``, ``timeline_loops``)."""
import json

from autograd_py.playground.session import Session
from autograd_py.playground.timeline_export import resolved

LOOP = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(100):
    h = x * i + torch.randn(2)
y = (h * x).sum()
print(y.item())
"""


def _open(session, group, iteration):
    return json.loads(session.request_json(json.dumps({"type": "open_iteration", "group": group,
                                                       "iteration": iteration})))


def test_a_folded_iteration_opens_with_its_own_steps_and_the_same_run():
    streamed = []
    session = Session(timeline=True, on_output=lambda stream, text: streamed.append(text))
    first = session.run(LOOP)
    group = first["timeline"]["groups"][0]
    assert group["elided"]["from_iteration"] == 21 and group["elided"]["to_iteration"] == 99
    assert 50 not in [s[0] for s in group["shown"]]
    streamed.clear()
    again = _open(session, group["id"], 50)
    assert again["ok"] and streamed == []  # the console has the first run's output already
    # Unseeded random numbers too: the replay starts from the first run's generator state.
    assert again["stdout"] == first["stdout"]
    assert again["replay"] == {"group": group["id"], "iteration": 50, "step": 101, "same": True}
    tl = resolved(again["timeline"])
    row = tl["groups"][0]
    assert [s[0] for s in row["shown"]] == list(range(1, 21)) + [50, 100]
    assert row["elided"]["iterations"] == 78  # 21-49 and 51-99
    steps = {s["step"]: s for s in tl["steps"]}
    header, body = steps[101], steps[102]
    assert (header["line"], header["iteration"], header["after_elided"]) == (3, 50, 2 * 29)
    assert body["line"] == 4 and tl["steps"][tl["steps"].index(body) - 1] is header
    assert body["vars"]["h"]["grad_fn"] == "AddBackward0"
    assert session.timeline_focus is None
    # The session's namespace is the replay's: the console and views go on from there.
    assert session.eval_line("print(i)")["stdout"] == "99\n"


NESTED = """total = 0
for i in range(30):
    for j in range(3):
        total = total + i * j
print(total)
"""


def test_an_outer_iteration_opens_with_the_loop_runs_inside_it():
    session = Session(timeline=True)
    first = session.run(NESTED)
    outer = next(g for g in first["timeline"]["groups"] if g["parent"] is None)
    inner_parents = [g for g in first["timeline"]["groups"] if g["parent"] == outer["id"]]
    assert len(inner_parents) == 21 and first["timeline"]["groups_dropped"] == 9  # iterations 21-29 folded
    again = _open(session, outer["id"], 25)
    groups = again["timeline"]["groups"]
    inner = [g for g in groups if g["parent"] == outer["id"]]
    assert len(inner) == 22 and again["timeline"]["groups_dropped"] == 8
    opened = next(g for g in inner if g["first_step"] > again["replay"]["step"])
    assert opened["iterations"] == 3 and [s[0] for s in opened["shown"]] == [1, 2, 3]
    # An inner loop run of the opened iteration opens by its own id the next time.
    deeper = _open(session, opened["id"], 2)
    assert deeper["replay"]["step"] is not None and deeper["replay"]["same"]


def test_bad_requests_and_no_timeline():
    session = Session(timeline=True)
    assert _open(session, 1, 1)["error"]["code"] == "no_timeline"
    session.run(NESTED)
    assert _open(session, 1, 0)["error"]["code"] == "bad_request"
    assert _open(session, 1, True)["error"]["code"] == "bad_request"
    missing = _open(session, 99, 1)
    assert missing["ok"] and missing["replay"]["step"] is None
