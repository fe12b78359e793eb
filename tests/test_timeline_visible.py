"""The timeline's visible step ranges where a root let go of shares nodes with what stays reachable."""
from test_playground_timeline_flow import _visible_at, _walked

from autograd_py.playground import Session

# ``m``'s node is held by ``r``'s and ``q``'s; once ``m`` is deleted and ``r`` rebound, only ``q``'s
# node (reachable, not below the root let go of) keeps it shown (``timeline_visible._lost``'s
# parent that holds a node). The programs of test_playground_timeline_flow pass with a reachable
# parent outside the let-go root's nodes ignored (a new one still counted).
SHARED = """import torch
x = torch.ones(2, requires_grad=True)
m = x * 2
r = m + 1
q = m * 3
del m
r = x * 5
q = x * 7
k = (x * 4).sin()
j = k.cos()
del k
j = x + 1
"""

# A parameter used once per iteration: its AccumulateGrad has a parent per iteration, nearly all
# gone by the time a root that reached it is let go of.
LOOP = """import torch
w = torch.ones((), requires_grad=True)
for i in range(6):
    s = w * 1.0
    s = s + w * 2.0
    t = s.tanh()
    s = w
    u = t * w
"""


def test_a_node_stays_visible_while_a_reachable_parent_holds_it():
    for code in (SHARED, LOOP):
        result = Session(timeline=True).run(code)
        export = result["timeline"]
        assert export["visible_until"] is None
        for index in range(len(export["steps"])):
            assert _visible_at(export, index) == _walked(export, result["graph"], index), (code, index)
    export = Session(timeline=True).run(SHARED)["timeline"]
    mul = next(r for r in export["nodes"] if r["name"] == "MulBackward0")  # m's
    rebound = next(i for i, s in enumerate(export["steps"]) if s["line"] == 7)  # r = x * 5
    released = next(i for i, s in enumerate(export["steps"]) if s["line"] == 8)  # q = x * 7
    assert _visible_at(export, rebound) >= {mul["id"]}
    assert mul["id"] not in _visible_at(export, released)
