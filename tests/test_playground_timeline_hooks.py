"""The timeline's recorder: calls inserted before each statement (step_hooks), invisible to the code.

A run with the timeline must print, raise and report errors exactly as one without; its steps
follow statements, with a loop's header a step before each iteration and before the check that
ends the loop.
"""
import ast
import json

import pytest

from autograd_py.playground import timeline as timeline_module, timeline_state
from autograd_py.playground.session import Session
from autograd_py.playground.timeline_export import resolved
from autograd_py.playground.timeline_passes import open_pass

ERRORS = {
    "name_in_loop": "import torch\nx = torch.ones(2)\nfor i in range(3):\n    y = x * i\n    if i == 2:\n"
                    "        z = undefined_name + 1\n",
    "function_in_loop": "import torch\ndef f(t):\n    return t.view(3)\nx = torch.ones(2, requires_grad=True)\n"
                        "for i in range(2):\n    f(x)\n",
    "not_iterable": "x = 5\nfor i in x:\n    pass\n",
    "not_iterable_one_line": "x = 5\nfor i in x: pass\n",
    "while_tensor_bool": "import torch\nx = torch.ones(2)\nwhile x:\n    break\n",
    "while_test_raises": "n = 0\nwhile n < undefined:\n    n += 1\n",
    "freed_graph": "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward()\ny.backward()\n",
    "multiline_matmul": "import torch\na = torch.ones(2, 3)\nb = torch.ones(4, 5)\nc = (a @\n     b)\n",
    "syntax": "x = 1\nfor i in range(3)\n    x += i\n",
    "warning_then_assert": "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\nprint(y.grad)\n"
                           "assert x.sum() > 5, 'too small'\n",
    "class_body": "class A:\n    '''doc'''\n    x = 1\n    y = x / 0\n",
    "decorator": "def deco(f):\n    raise ValueError('no')\n@deco\ndef g():\n    pass\n",
    "generator": "def gen():\n    yield 1\n    raise RuntimeError('boom')\nfor v in gen():\n    print(v)\n",
    "syntax_warning": "x = 1\nif x is 1:\n    print('one')\nprint(1/0)\n",
    "recursion": "def f(n):\n    return f(n + 1)\nf(0)\n",
    "backward_under_no_grad": "import torch\nwith torch.no_grad():\n    x = torch.ones(2, requires_grad=True)\n"
                              "    y = x * 2\n    y.backward()\n",
    "match": "x = 3\nmatch x:\n    case 1:\n        print('a')\n    case _:\n        print('b' + 1)\n",
    "try_finally": "try:\n    x = 1 / 0\nexcept ZeroDivisionError as e:\n    print('caught', e)\nfinally:\n"
                   "    print('fin')\nraise KeyError('k')\n",
    "comprehension": "import torch\nxs = [torch.ones(2) * i for i in range(3)]\nys = [x.view(3) for x in xs]\n",
    "scopes": "'''Module doc.'''\nfrom __future__ import annotations\nc = 0\ndef inc():\n    '''inc doc'''\n"
              "    global c\n    c += 1\n    def inner():\n        v = 1\n        def deep():\n            nonlocal v\n"
              "            v += 1\n            return v\n        return deep()\n    return inner()\n"
              "print(inc(), c, __doc__, inc.__doc__)\nx: undefined_annotation = 1\n"
              "print(sorted(k for k in globals() if not k.startswith('__')), [k for k in dir() if 'ag_' in k])\n"
              "print(1 / 0)\n",
}


def _outcome(result):
    return {key: result[key] for key in ("ok", "stdout", "stderr", "error")}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_output_and_errors_are_the_same_with_the_timeline(name):
    code = ERRORS[name]
    assert _outcome(Session(timeline=True).run(code)) == _outcome(Session().run(code))


def _lines(code):
    return [(s["line"], s["kind"]) if s["kind"] != "line" else s["line"]
            for s in Session(timeline=True).run(code)["timeline"]["steps"]]


def test_while_break_continue_and_else_steps():
    code = """k = 0
while k < 3:
    k += 1
    if k == 2:
        continue
else:
    done = True
for i in range(5):
    if i == 1:
        break
t = 1
"""
    assert _lines(code) == [1, 2, 3, 4, 2, 3, 4, 5, 2, 3, 4, 2, 7, 8, 9, 8, 9, 10, 11]
    groups = Session(timeline=True).run(code)["timeline"]["groups"]
    assert [(g["line"], g["iterations"]) for g in groups] == [(2, 3), (8, 2)]


def test_functions_generators_and_one_line_loops():
    code = """def gen(n):
    for j in range(n):
        yield j
def total(n):
    s = 0
    for v in gen(n):
        s += v
    return s
r = total(2)
for i in range(2): r += i
"""
    r = Session(timeline=True).run(code)["timeline"]
    assert [s["line"] for s in r["steps"]] == [1, 4, 9, 5, 6, 2, 3, 7, 6, 2, 3, 7, 6, 2, 8, 10, 10, 10, 10, 10]
    groups = {g["line"]: g for g in r["groups"]}
    assert groups[6]["iterations"] == 2 and groups[10]["iterations"] == 2
    # A generator's loop is left at each yield (as a debugger's return event): a run per resumption.
    assert [(g["iterations"], g["parent"]) for g in r["groups"] if g["line"] == 2] == [(1, groups[6]["id"])] * 3


def test_nodes_made_inside_editor_functions_take_their_lines():
    code = """import torch
def layer(x, w):
    h = x * w
    return h.tanh()
x = torch.ones(2, requires_grad=True)
y = layer(x, 3.0) + 1
"""
    r = Session(timeline=True).run(code)
    assert sorted((n["name"], n["line"]) for n in r["graph"]["nodes"] if n["kind"] == "grad_fn") == [
        ("AddBackward0", 6), ("MulBackward0", 3), ("TanhBackward0", 4)]
    steps = {s["line"]: s for s in r["timeline"]["steps"]}
    # A step lasts until the next statement starts: the + 1 after the call returns joins line 4's.
    assert [len(steps[line].get("nodes", [])) for line in (3, 4, 6)] == [1, 2, 0]


def test_the_console_can_call_the_runs_functions_afterwards():
    s = Session(timeline=True)
    r = s.run("def f(n):\n    for i in range(n):\n        n += i\n    return n\nprint(f(3))\n")
    steps = r["timeline"]["total_steps"]
    assert r["stdout"] == "6\n"
    assert s.eval_line("f(4)")["stdout"] == "10\n"
    assert s._timeline.total == steps  # the run's recorder stays quiet
    again = s.run("print(sum(i for i in range(3)))\n")
    assert again["ok"] and again["timeline"]["total_steps"] == 1


def test_a_failing_recorder_leaves_the_run_alone(monkeypatch):
    def broken(self, *args):
        raise ValueError("recorder bug")

    monkeypatch.setattr(timeline_state.StateWatch, "scan", broken)
    r = Session(timeline=True).run("import torch\nx = torch.ones(2)\nprint(x.sum().item())\n")
    assert r["ok"] and r["stdout"] == "2.0\n"
    assert r["timeline"]["error"] == "ValueError: recorder bug"
    json.dumps(r["timeline"])


def test_large_tensors_keep_their_first_values_and_their_statistics():
    code = "import torch\nx = torch.arange(100.).reshape(10, 10)\nm = torch.tensor([True, False] * 40)\n"
    steps = resolved(Session(timeline=True).run(code)["timeline"])["steps"]
    x = steps[1]["vars"]["x"]["value"]
    assert x == {"shape": [10, 10], "values": [float(i) for i in range(6)], "truncated": True,
                 "min": 0.0, "max": 99.0, "mean": 49.5}
    m = steps[2]["vars"]["m"]["value"]
    assert (m["min"], m["max"], m["mean"]) == (0.0, 1.0, 0.5)


def test_a_write_through_data_shows_for_small_tensors():
    code = "import torch\nw = torch.ones(2, requires_grad=True)\nw.data[0] = 5.\nw.data.mul_(2)\n"
    steps = resolved(Session(timeline=True).run(code)["timeline"])["steps"]
    assert [s["vars"]["w"]["value"]["values"] for s in steps[2:]] == [[5.0, 1.0], [10.0, 2.0]]


REST = """import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
s = torch.zeros(2)
for i in range(300):
    s = s + w * 0.5
total = s.sum()
total.backward()
print(w.grad)
"""


def test_a_run_over_the_budget_rests_and_its_last_step_holds_the_end_state(monkeypatch):
    full = Session(timeline=True).run(REST)
    monkeypatch.setattr(timeline_module, "STEP_BUDGET", 100)
    rested = Session(timeline=True).run(REST)
    assert rested["stdout"] == full["stdout"] == "tensor([150., 150.])\n"
    tl, whole = resolved(rested["timeline"]), full["timeline"]
    assert whole["rested_after"] is None and tl["rested_after"] == 100
    # Every statement is still counted; the run's last statement is stored after them all.
    assert tl["total_steps"] == whole["total_steps"] and tl["steps"][-2]["step"] == 100
    last = tl["steps"][-1]
    assert (last["step"], last["line"]) == (whole["total_steps"], 8)
    assert last["after_elided"] == whole["total_steps"] - 100 - 1
    # Its delta holds the run's end: s's final value, total bound, w's grad, and rows for the
    # nodes the end state reaches (made while the recorder rested).
    assert last["vars"]["s"]["value"]["values"] == [150.0, 300.0]
    assert "total" in last["vars"]
    w_id = last["vars"]["w"]["id"] if "w" in last["vars"] else tl["steps"][1]["vars"]["w"]["id"]
    assert last["grads"][str(w_id)]["values"] == [150.0, 150.0]
    rows = {n["id"]: n for n in tl["nodes"]}
    assert rows[last["vars"]["total"]["grad_fn_id"]]["name"] == "SumBackward0"
    assert rows[last["vars"]["total"]["grad_fn_id"]]["line"] == 6


CAPPED = """import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
s = torch.zeros(2)
for step in range(30):
    for p in (w, w):
        s = s + p * 0.5
    total = s.sum()
print(s)
"""


@pytest.mark.parametrize("limit", [20, 21, 22, 23, 24])
def test_a_run_that_fills_the_store_rests_there_and_its_loops_count_every_iteration(monkeypatch, limit):
    # Whichever statement comes when the store is full (a loop's header, the first statement of
    # an iteration or another), the recorder rests from it, as over the budget, and the loop rows
    # open then go on counting the iterations their iterators hand out.
    full = Session(timeline=True).run(CAPPED)
    monkeypatch.setattr(timeline_module, "STEP_LIMIT", limit)
    rested = Session(timeline=True).run(CAPPED)
    assert rested["stdout"] == full["stdout"] == "tensor([30., 60.], grad_fn=<AddBackward0>)\n"
    tl, whole = resolved(rested["timeline"]), full["timeline"]
    assert whole["rested_after"] is None and tl["rested_after"] == tl["steps"][-2]["step"]
    assert tl["total_steps"] == whole["total_steps"] and len(tl["steps"]) == limit + 1
    # The last step is the run's last statement, as the whole run's is, and holds its end state.
    last, end = tl["steps"][-1], whole["steps"][-1]
    assert (last["step"], last["line"]) == (end["step"], end["line"]) == (whole["total_steps"], 8)
    assert last["after_elided"] == last["step"] - tl["rested_after"] - 1
    assert last["vars"]["s"]["value"]["values"] == [30.0, 60.0]
    outer = next(g for g in tl["groups"] if g["line"] == 4)
    assert outer["iterations"] == next(g for g in whole["groups"] if g["line"] == 4)["iterations"] == 30
    # Only the stored iterations are listed; the one running at the rest ends where the recording did.
    assert [n for n, _, _ in outer["shown"]] == list(range(1, len(outer["shown"]) + 1))
    assert tl["rested_after"] <= outer["shown"][-1][2] <= tl["rested_after"] + 1 < last["step"]
    assert len(outer["shown"]) < 30
    # The inner loop's runs that began before the rest count both of their iterations (the one open
    # then too); the later ones have no row.
    inner = [g for g in tl["groups"] if g["line"] == 5]
    assert all(g["iterations"] == 2 for g in inner) and len(outer["shown"]) - 1 <= len(inner) <= len(outer["shown"])


PASSES = """import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(12):
    y = (w * 2.0).sum()
    y.backward()
print(w.grad)
"""


def test_a_resting_recorder_keeps_only_the_passes_the_stored_steps_open(monkeypatch):
    # A pass after the rest has no step of its own (its statement is counted, folded into the
    # last step): its steps would be kept for nothing.
    whole = Session(timeline=True).run(PASSES)["timeline"]
    monkeypatch.setattr(timeline_module, "STEP_LIMIT", 14)
    session = Session(timeline=True)
    tl = session.run(PASSES)["timeline"]
    assert whole["passes_kept"] == list(range(1, 13)) and tl["rested_after"] is not None
    stored = [s["pass"] for s in tl["steps"] if s["kind"] != "line"]
    assert 0 < len(stored) < 12 and tl["passes_kept"] == stored
    assert open_pass(session, stored[-1])["trace"] is not None  # a stored pass's step still opens


def test_what_a_statement_made_of_one_call_or_a_loop_header_can_change():
    from autograd_py.playground.step_hooks import _around_call, _enters

    def first(src):
        return ast.parse(src).body[0]
    # Around a pass that starts inside its one call: the names it binds.
    assert _around_call(first("loss.backward()")) == ()
    assert _around_call(first("g, = torch.autograd.grad(y, [x], retain_graph=True)")) == ("g",)
    for other in ("f(x).backward()", "loss.backward(gradient=v.mul_(2))", "y = loss.backward() or v.mul_(2)",
                  "a.b = loss.backward()", "x += f(y)", "t = t + 1"):
        assert _around_call(first(other)) is None, other
    # A loop's first step: a for's target when its iterable calls nothing, nothing for a while's test.
    assert _enters(first("for p in (w, b):\n    pass")) == ("p",)
    assert _enters(first("for i, (a, b) in pairs:\n    pass")) == ("i", "a", "b")
    assert _enters(first("for p in model.parameters():\n    pass")) is None
    assert _enters(first("for p.x in ps:\n    pass")) is None
    assert _enters(first("while k < 3:\n    k += 1")) == ()
    assert _enters(first("while f(k):\n    pass")) is None
