"""The timeline's state at step k is what a fresh run stopped after step k shows (issue 12).

The state at a step is rebuilt from the exported deltas, as the page does: named tensors (value,
version, grad_fn), the autograd nodes reachable from them with their saved tensors' states, and
each named tensor's ``.grad``. It is compared with a fresh run of the code cut after that step's
statement (straight-line code: the source truncated there), and, for loops, with a fresh run
stopped just before step k + 1 starts.
"""
import ast

import pytest

from autograd_py.playground import timeline as timeline_module
from autograd_py.playground.session import Session
from autograd_py.playground.timeline_export import resolved
from autograd_py.playground.timeline_state import small

STRAIGHT = ["""import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
w = torch.tensor([0.5, -1., 2.], requires_grad=True)
y = x * w
z = y.exp()
loss = (z +
        y).sum()
loss.backward(retain_graph=True)
g = x.grad.clone()
x.grad = None
loss.backward()
del z
""", """import torch
a = torch.ones(4, requires_grad=True)
b = a * 2
v = b[1:3]
v.mul_(3)
c = b.sin()
b.add_(1)
d = (b * a).sum()
d.backward()
a.grad.zero_()
""", """import torch
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
x = torch.randn(4, 3)
out = lin(x).tanh().sum()
out.backward()
with torch.no_grad():
    lin.weight -= 0.1 * lin.weight.grad
x.requires_grad_()
h = lin(x).relu()
s, = torch.autograd.grad(h.sum(), [x])
"""]

STRAIGHT.append("""import torch
torch.manual_seed(0)
x = torch.arange(4.)
v = x[1:3]
p = x
d = x.data
q = v.detach()
x[0] = 9.
p -= 1
v *= 2
d[3] = 7.
w = torch.ones(2, requires_grad=True)
m = w
w.grad = torch.ones(2)
m.grad = None
t = 0
t += 3
lin = torch.nn.Linear(2, 1)
k = lin.weight
with torch.no_grad():
    k -= 1
    k[0, 1] = 5.
box = {"w": x}
box["w"] -= 1 if False else 0
lst = [x]
lst[0] -= 1
big = torch.zeros(100)
view = big[10:20]
big += 1
""")  # writes into named tensors without a call: the names sharing their storage follow

LOOPS = ["""import torch
w = torch.tensor([1., -2.], requires_grad=True)
acc = w * 0
for i in range(4):
    acc = acc + w * i
    if i == 2:
        acc.sum().backward(retain_graph=True)
k = 0
while k < 2:
    k += 1
    w.grad.mul_(2)
def f(t):
    for j in range(2):
        t = t * 2
    return t
y = f(acc)
""", """import torch
w = torch.ones(3, requires_grad=True)
for step in range(30):
    loss = (w * w).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    w.grad = None
""", """import torch
class Box:
    def __init__(self, t):
        self.t = t
    def __add__(self, other):
        s = self.t + other
        return s
def g(t):
    u = t * 3
    return u
x = torch.ones(2, requires_grad=True)
z = g(x) + 1
b = Box(z) + x
a, c = z, b
a, c = c, a
del z
w = [x * k for k in range(2)][1]
w.sum().backward()
v = x.grad if x.grad is not None else None
""", """import torch
w = torch.ones(3, requires_grad=True)
b = torch.zeros(2, requires_grad=True)
for p in (w, b):
    p.grad = torch.ones_like(p)
for p in (w, b):
    p.grad = None
with torch.no_grad():
    q = w
    q -= 0.5
    q *= 2
    r = w.detach()
    q += 1
    e = torch.nn.Parameter(torch.ones(2))
    f = e
    f -= 3
def step(t):
    t -= 1
    t.grad = None
with torch.no_grad():
    step(w)
""", """import torch
w = torch.ones(2, requires_grad=True)
v = torch.ones(2)
loss = (w * 3).sum()
def noop():
    return 0
f = lambda: (loss.backward(retain_graph=True), v.mul_(2), noop())
f()
def train():
    loss.backward(retain_graph=True)
    v.add_(1)
    return v
u = train()
gs = [torch.autograd.grad(loss, [w], retain_graph=True), v.mul_(2)]
g = loss.backward()
"""]  # the fourth: in place, at module level, through a name that others share (p, q, f) or a local;
# the fifth: passes started by a statement made of one call (the steps around such a pass look at its
# names only), from a lambda that changes a tensor after the pass, and from a function's statement;
# a pass that changes no named tensor, followed in its statement by one that does


def _state_at(export, step):
    """The page's view at ``step``: vars, nodes reachable from them (with saved states), grads."""
    tensors, grads, saved = {}, {}, {}
    for s in export["steps"]:
        if s["step"] > step:
            break
        for name, row in s["vars"].items():
            if row is None:
                tensors.pop(name, None)
            else:
                tensors[name] = row
        grads.update(s["grads"])
        for nid, states in s["saved"].items():
            saved.setdefault(nid, {}).update(states)
    rows = {r["id"]: r for r in export["nodes"]}
    nodes, todo = {}, [row["grad_fn_id"] for row in tensors.values() if row["grad_fn_id"]]
    while todo:
        nid = todo.pop()
        row = rows.get(nid)
        if row is None or nid in nodes:
            continue
        nodes[nid] = row
        todo.extend(n for n in row["next"] if n is not None)
    index = max(i for i, s in enumerate(export["steps"]) if s["step"] <= step)
    return {
        "vars": {name: (row["value"], row["version"], row["grad_fn"]) for name, row in tensors.items()},
        "grads": {name: grads.get(row["id"]) for name, row in tensors.items()},
        "nodes": sorted((r["name"], r["line"], r["order"], tuple(sorted(
            (k, v) for k, v in saved.get(nid, {}).items() if v != "alive"))) for nid, r in nodes.items()),
        # drawn freed from the step the export names (the page reads it, it does not work it out)
        "freed": sorted((r["name"], r["line"], r["order"]) for nid, r in nodes.items()
                        if export["freed_at"].get(nid, index + 1) <= index),
    }


def _live_state(session):
    """The same, read from a session's namespace and its nodes (``Provenance`` gives line/order)."""
    named = {name: t for name, t in _named(session.namespace)}
    prov = session._provenance
    nodes, todo = {}, [t.grad_fn for t in named.values() if t.grad_fn is not None]
    while todo:
        node = todo.pop()
        if node is None or id(node) in nodes or prov.of(node)["order"] is None:
            continue
        nodes[id(node)] = node
        todo.extend(n for n, _ in node.next_functions)
    return {
        "vars": {name: (small(t._data), t._version_counter[0], type(t.grad_fn).__name__ if t.grad_fn else None)
                 for name, t in named.items()},
        "grads": {name: None if t._grad is None else small(t._grad._data) for name, t in named.items()},
        "nodes": sorted((type(n).__name__, prov.of(n)["line"], prov.of(n)["order"], tuple(sorted(
            (k, s) for k, _, s in n.saved_items() if s != "alive"))) for n in nodes.values()),
        "freed": sorted((type(n).__name__, prov.of(n)["line"], prov.of(n)["order"]) for n in nodes.values()
                        if n._freed and any(True for _ in n.saved_items())),
    }


def _named(namespace):
    from autograd_py.playground.graph import named_tensors
    return named_tensors(namespace)


def _statement_ends(code):
    """``{first line: last line}`` of every simple statement (a ``with`` header's step is before its body)."""
    return {s.lineno: s.end_lineno for s in ast.walk(ast.parse(code))
            if isinstance(s, ast.stmt) and not hasattr(s, "body")}


@pytest.mark.parametrize("code", STRAIGHT)
def test_each_step_is_the_code_cut_after_its_line(code):
    export = resolved(Session(timeline=True).run(code)["timeline"])
    ends = _statement_ends(code)
    lines = code.splitlines(True)
    checked = 0
    for s in export["steps"]:
        if s["kind"] != "line" or s["line"] not in ends:  # a pass: part of its line's statement
            continue
        following = [t for t in export["steps"] if t["step"] > s["step"]]
        last = s["step"] if not following or following[0]["kind"] == "line" else following[0]["step"]
        fresh = Session(timeline=True)
        result = fresh.run("".join(lines[:ends[s["line"]]]))
        assert result["ok"], result["error"]
        assert _state_at(export, last) == _live_state(fresh), f"after line {s['line']}"
        checked += 1
    assert checked == len(ends)


class _Stop(BaseException):
    pass


def _stopped_at(code, step, monkeypatch):
    """A fresh session whose run stopped just before step ``step + 1`` began."""
    line_event = timeline_module.Timeline.line_event

    def stopping(self, frame, line, kind, *names):
        if self.total == step:
            raise _Stop
        line_event(self, frame, line, kind, *names)

    with monkeypatch.context() as patch:
        patch.setattr(timeline_module.Timeline, "line_event", stopping)
        session = Session(timeline=True)
        result = session.run(code)
    assert result["error"] is None or result["error"]["type"] == "_Stop"
    return session


@pytest.mark.parametrize("code", LOOPS)
def test_each_stored_step_of_a_loop_is_the_run_stopped_there(code, monkeypatch):
    export = resolved(Session(timeline=True).run(code)["timeline"])
    numbers = [s["step"] for s in export["steps"]]
    if len(numbers) < export["total_steps"]:  # folded iterations: their next stored step sums them up
        assert any(s.get("after_elided") for s in export["steps"])
    for index, s in enumerate(export["steps"]):
        nxt = export["steps"][index + 1] if index + 1 < len(export["steps"]) else None
        if nxt is not None and nxt["kind"] != "line":
            continue  # a backward step shares its statement: compared after it
        live = _live_state(_stopped_at(code, s["step"], monkeypatch))
        assert _state_at(export, s["step"]) == live, f"step {s['step']} (line {s['line']})"
