"""A clicked node's details at a past timeline step (``timeline_past.describe_at``)."""
import json

from autograd_py.playground.session import Session

CODE = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * x
z = y.sum()
z.backward()
w = x * 3
"""


def _run(code=CODE):
    session = Session(timeline=True)
    result = session.run(code)
    assert result["ok"], result["error"]
    return session, result


def _describe(session, node, step=None):
    request = {"type": "describe", "node": node}
    if step is not None:
        request["step"] = step
    return json.loads(session.request_json(json.dumps(request)))


def _step_of(result, line, kind="line"):
    return next(s["step"] for s in result["timeline"]["steps"] if s["line"] == line and s["kind"] == kind)


def test_saved_tensors_are_alive_before_the_pass_that_frees_them():
    session, result = _run()
    mul = next(n for n in result["graph"]["nodes"] if n.get("name") == "MulBackward0" and n["line"] == 3)
    now = _describe(session, mul["id"])["node"]
    assert now["freed"] and {e["state"] for e in now["saved"]} == {"freed"}
    before = _describe(session, mul["id"], _step_of(result, 4))
    assert before["ok"] and before["at_step"] == _step_of(result, 4)
    assert not before["node"]["freed"]
    assert [(e["name"], e["state"]) for e in before["node"]["saved"]] == [("other", "alive"), ("self", "alive")]
    after = _describe(session, mul["id"], _step_of(result, 5, "backward"))["node"]
    assert after["freed"] and {e["state"] for e in after["saved"]} == {"freed"}
    assert after["formula"] == now["formula"] != ""


def test_accumulate_grad_shows_its_leafs_grad_as_it_was():
    session, result = _run()
    acc = next(n for n in result["graph"]["nodes"] if n["kind"] == "accumulate")
    assert _describe(session, acc["id"])["node"]["variable_grad"]["text"] == "[2., 4.]"
    assert _describe(session, acc["id"], _step_of(result, 4))["node"]["variable_grad"] is None
    then = _describe(session, acc["id"], _step_of(result, 5, "backward"))["node"]
    assert then["variable_grad"]["values"] == [2.0, 4.0] and then["variable_grad"]["text"] == "[2., 4.]"


LOOP = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(3):
    y = x * x
    y.sum().backward()
"""


def test_a_node_the_end_no_longer_holds_is_described_from_its_row():
    session, result = _run(LOOP)
    rows = result["timeline"]["nodes"]
    drawn = {n["id"] for n in result["graph"]["nodes"]}
    gone = [r for r in rows if r["name"] == "MulBackward0" and r["id"] not in drawn]
    assert len(gone) == 2  # the first two iterations' y were rebound
    assert not _describe(session, gone[0]["id"])["ok"]  # no object: only the timeline knows it
    made = gone[0]["step"]
    answer = _describe(session, gone[0]["id"], made)
    assert answer["ok"] and answer["node"]["gone"]
    node = answer["node"]
    assert node["name"] == "MulBackward0" and not node["freed"]
    # What it saved, as it was made: shape and version as a live node's details give them, and the
    # values of a tensor this small (PyTorch's torch.tensor([1., 2.]) printed as the panel does).
    assert node["saved"] == [{"name": "other", "state": "alive", "shape": [2], "version": 0, "value": "[1., 2.]"},
                             {"name": "self", "state": "alive", "shape": [2], "version": 0, "value": "[1., 2.]"}]
    live = next(n for n in result["graph"]["nodes"] if n.get("name") == "MulBackward0")
    assert [(e["name"], e["shape"], e["version"]) for e in _describe(session, live["id"])["node"]["saved"]] == \
        [(e["name"], e["shape"], e["version"]) for e in node["saved"]]
    assert node["next_functions"] == [["AccumulateGrad", 0], ["AccumulateGrad", 0]]
    assert "grad_outputs" in node["formula"] or "def backward" in node["formula"]
    freed = _describe(session, gone[0]["id"], made + 2)["node"]  # its pass (line 5) ran: saved tensors freed
    assert freed["freed"] and {e["state"] for e in freed["saved"]} == {"freed"}
    assert all("value" not in e and e["shape"] == [2] for e in freed["saved"])  # freed: no values, as live


def test_a_gone_node_shows_the_values_it_saved_not_later_ones():
    code = """import torch
a = torch.tensor([1.0, -1.0], requires_grad=True)
for i in range(2):
    b = a * 1
    c = b.exp()
    c.mul_(2)
    d = c.mean()
    e = d.expand(3)[torch.tensor([2, 0])]
"""
    session, result = _run(code)
    drawn = {n["id"] for n in result["graph"]["nodes"]}
    exp = next(r for r in result["timeline"]["nodes"] if r["name"] == "ExpBackward0" and r["id"] not in drawn)
    made = _describe(session, exp["id"], exp["step"])["node"]  # saved its result, e^[1., -1.], alive
    assert made["gone"] and made["saved"] == [
        {"name": "result", "state": "alive", "shape": [2], "version": 0, "value": "[2.7183, 0.3679]"}]
    later = _describe(session, exp["id"], exp["step"] + 1)["node"]  # c.mul_(2): what it saved is no more
    assert later["saved"] == [{"name": "result", "state": "modified", "shape": [2], "version": 0}]
    # A saved value that is not a tensor (the index's arrays): its repr, as a live node's details give it.
    index = next(r for r in result["timeline"]["nodes"] if r["name"] == "IndexBackward0" and r["id"] not in drawn)
    live = next(n["id"] for n in result["graph"]["nodes"] if n.get("name") == "IndexBackward0")
    gone_saved = _describe(session, index["id"], index["step"])["node"]["saved"]
    assert gone_saved == _describe(session, live)["node"]["saved"] and "value" in gone_saved[0]
    mean = next(r for r in result["timeline"]["nodes"] if r["name"] == "MeanBackward0" and r["id"] not in drawn)
    assert [e["name"] for e in _describe(session, mean["id"], mean["step"])["node"]["saved"]] == \
        [e["name"] for e in _describe(session, next(n["id"] for n in result["graph"]["nodes"]
                                                     if n.get("name") == "MeanBackward0"))["node"]["saved"]]


def test_a_node_unknown_to_both_is_not_found():
    session, _ = _run()
    answer = _describe(session, "f0", 3)
    assert not answer["ok"] and answer["error"]["type"] == "NotFound"
