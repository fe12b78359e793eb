"""The "See autograd" side of the playground bridge, in CPython: graph, steps, grad history,
the node a second backward raised in, interactive backward (and its echo), Jacobian, details."""

import json

import numpy as np
import pytest

from autograd_py import engine
from autograd_py.playground import trace
from autograd_py.playground import Session
from autograd_py.playground.backward import parse_vector, RequestError
from autograd_py.playground.views import PassRecorder, failed_node, first_freed_node, json_safe

SEED_MM = """\
import torch
from torch.autograd import Variable
x = Variable(torch.ones(2, 3), requires_grad=True)
a = Variable(torch.ones(3, 4))
out = torch.mm(x, a)
out.backward(torch.FloatTensor([[1, 2, 3, 4], [5, 6, 7, 8]]))
"""


def strict_loads(text):
    """JSON.parse's rules: NaN and Infinity are not JSON."""
    def refuse(token):
        raise ValueError(f"non-JSON constant {token}")
    return json.loads(text, parse_constant=refuse)


def tensor_row(result, name):
    return next(t for t in result["graph"]["tensors"] if name in t["names"])


def node_named(result, name):
    return [n for n in result["graph"]["nodes"] if n.get("name") == name]


@pytest.fixture
def session():
    return Session()


# ---- graph and gradient panel -------------------------------------------------------------

def test_run_result_carries_the_graph_and_the_panel_rows(session):
    result = strict_loads(session.run_json(SEED_MM))
    assert result["ok"], result["error"]
    assert len(node_named(result, "MmBackward0")) == 1
    x = tensor_row(result, "x")
    assert x["grad"]["values"] == [[10.0] * 3, [26.0] * 3]
    assert tensor_row(result, "a")["grad_reason"] == "does not require grad"
    assert tensor_row(result, "out")["grad_reason"] == "non-leaf, call retain_grad()"
    assert result["failed_node"] is None


def test_console_lines_update_the_graph(session):
    session.run("import torch\nx = torch.ones(2, requires_grad=True)")
    assert not node_named(session.eval_line("pass"), "MulBackward0")
    result = session.eval_line("y = x * 3")
    assert len(node_named(result, "MulBackward0")) == 1
    assert tensor_row(result, "y")["grad_fn"] == "MulBackward0"


def test_non_finite_values_are_sent_as_strings(session):
    result = strict_loads(session.run_json("import torch\nz = torch.tensor([1.0, 0.0]).log()"))
    assert tensor_row(result, "z")["value"]["values"] == [0.0, "-inf"]
    assert json_safe({"a": [float("nan"), (float("inf"), 1.5)]}) == {"a": ["nan", ["inf", 1.5]]}


def test_a_failing_export_does_not_fail_the_run(session, monkeypatch):
    from autograd_py.playground import graph

    def broken(*args, **kwargs):
        raise ValueError("boom")
    monkeypatch.setattr(graph, "export", broken)
    result = session.run("print('still runs')")
    assert result["ok"] and result["stdout"] == "still runs\n"
    assert result["graph"] is None and result["graph_error"] == "ValueError: boom"


# ---- steps of the last backward pass ------------------------------------------------------

def test_trace_is_the_last_pass_in_engine_order(session):
    result = session.run(
        "import torch\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "w = torch.tensor([3.0, 4.0], requires_grad=True)\n"
        "for scale in (1.0, 10.0):\n"
        "    y = (x * w).exp() * scale\n"
        "    y.sum().backward()\n"
    )
    steps = result["trace"]["steps"]
    assert result["trace"]["pass"] == 2 and result["trace"]["line"] == 6
    with trace.record() as expected:  # the engine's own report of the same pass
        y = (session.namespace["x"] * session.namespace["w"]).exp() * 10.0
        y.sum().backward()
    assert [(s["event"], s.get("name")) for s in steps] == [(s["event"], s.get("name")) for s in expected]
    assert [s.get("name") for s in steps if s["event"] == "node"] == \
        ["SumBackward0", "MulBackward0", "ExpBackward0", "MulBackward0"]
    # The numbers are the second pass's: the sum's gradient reaches the scale-10 product.
    mul_scale = next(s for s in steps if s["event"] == "node" and s["name"] == "MulBackward0")
    assert mul_scale["grads_out"][0]["grad"]["values"] == [10.0, 10.0]
    assert steps[0]["roots"] and steps[0]["roots"][0].startswith("f")
    assert engine._listener[0] is None


def test_trace_keeps_values_as_they_were(session):
    result = session.run(
        "import torch\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "(x * 3).sum().backward()\n"
        "x.grad.zero_()\n"
    )
    acc = next(s for s in result["trace"]["steps"] if s["event"] == "accumulate")
    assert acc["grad"]["values"] == [3.0, 3.0]


def test_no_backward_no_trace_and_a_long_pass_is_cut():
    session = Session()
    assert session.run("a = 1")["trace"] is None
    recorder = PassRecorder(limit=3)
    import autograd_py as T
    x = T.tensor([1.0], requires_grad=True)
    previous = engine.set_listener(recorder)
    try:
        (x * 2 * 3 * 4).sum().backward()
    finally:
        engine.set_listener(previous)
    report = recorder.steps_json()
    assert len(report["steps"]) == 3 and report["dropped"] == recorder.count - 3 > 0


# ---- .grad history --------------------------------------------------------------------------

def test_history_shows_accumulation_zeroing_and_none(session):
    session.run(
        "import torch\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "for _ in range(2):\n"
        "    (x * x).sum().backward()\n"
        "x.grad.zero_()\n"
        "(x * x).sum().backward()\n"
    )
    result = session.eval_line("x.grad = None")
    entries = result["grad_history"][tensor_row(result, "x")["id"]]["entries"]
    assert [e["change"] for e in entries] == ["computed", "accumulated", "zeroed", "accumulated", "cleared"]
    assert entries[1]["delta"]["values"] == [2.0, 4.0] and entries[1]["grad"]["values"] == [4.0, 8.0]
    assert entries[2]["when"]["kind"] == "before" and entries[2]["when"]["line"] == 6
    assert entries[-1]["when"] == {"kind": "command", "command": 2} and entries[-1]["grad"] is None


def test_history_is_per_tensor_and_reset_forgets_it(session):
    first = session.run("import torch\nx = torch.ones(2, requires_grad=True)\nx.sum().backward()")
    old_id = tensor_row(first, "x")["id"]
    second = session.run("x = torch.ones(2, requires_grad=True)")
    assert old_id not in second["grad_history"]
    session.run("x.sum().backward()")
    reset = strict_loads(session.request_json(json.dumps({"type": "reset"})))
    assert reset["graph"]["nodes"] == [] and reset["grad_history"] == {} and reset["trace"] is None


# ---- the node a second backward raised in ---------------------------------------------------

def test_second_backward_names_the_freed_node(session):
    result = session.run(
        "import torch\n"
        "x = torch.tensor(3.0, requires_grad=True)\n"
        "y = x * x\n"
        "loss = y + 1\n"
        "loss.backward()\n"
        "loss.backward()\n"
    )
    assert result["error"]["type"] == "RuntimeError"
    mul = session.namespace["y"].grad_fn
    # The fix is at the call that freed the node: line 5, not the line that raised.
    fix = {"kind": "retain_graph", "line": 5, "before": "loss.backward()", "after": "loss.backward(retain_graph=True)"}
    assert result["failed_node"] == {"id": f"f{id(mul)}", "name": "MulBackward0", "how": "traceback",
                                     "kind": "freed", "stage": "during", "fixes": [fix]}
    node = next(n for n in result["graph"]["nodes"] if n["id"] == result["failed_node"]["id"])
    assert node["freed"] is True
    # The failed pass ran AddBackward0 (nothing saved), then raised at the product.
    assert [s["event"] for s in result["trace"]["steps"]] == ["begin", "node", "error", "end"]
    assert result["trace"]["steps"][2]["node"] == result["failed_node"]["id"]


def test_freed_custom_function_is_found(session):
    result = session.run(
        "import torch\n"
        "class Square(torch.autograd.Function):\n"
        "    @staticmethod\n"
        "    def forward(ctx, x):\n"
        "        ctx.save_for_backward(x)\n"
        "        return x * x\n"
        "    @staticmethod\n"
        "    def backward(ctx, g):\n"
        "        x, = ctx.saved_tensors\n"
        "        return 2 * x * g\n"
        "x = torch.tensor(2.0, requires_grad=True)\n"
        "y = Square.apply(x)\n"
        "y.backward()\n"
        "y.backward()\n"
    )
    assert result["failed_node"]["id"] == f"f{id(session.namespace['y'].grad_fn)}"


def test_path_search_finds_the_first_freed_node_without_a_traceback():
    import autograd_py as T
    from autograd_py.node import FREED_MESSAGE

    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    z = (y * 2).sum()
    z.backward()
    recorder = PassRecorder()
    recorder.roots = [f"f{id(z.grad_fn)}"]
    found = failed_node(RuntimeError(FREED_MESSAGE), {"z": z}, recorder)
    # SumBackward0 saves nothing; the engine would reach MulBackward0 (freed) first.
    assert found == {"id": f"f{id(z.grad_fn.next_functions[0][0])}", "name": "MulBackward0", "how": "path",
                     "kind": "freed", "stage": "during"}
    assert first_freed_node([x.grad_fn]) is None
    assert failed_node(ValueError("other"), {}, recorder) is None


# ---- interactive backward -------------------------------------------------------------------

VECTOR = "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\ny = x * x\ns = y.sum()\n"


@pytest.mark.parametrize("request_, echo", [
    ({"root": "s"}, "s.backward()"),
    ({"root": "s", "retain_graph": True, "create_graph": True}, "s.backward(retain_graph=True, create_graph=True)"),
    ({"root": "y", "gradient": {"kind": "ones"}}, "y.backward(gradient=torch.ones_like(y))"),
    ({"root": "y", "gradient": {"kind": "onehot", "index": 1}, "retain_graph": True},
     "y.backward(gradient=torch.tensor([0., 1., 0.]), retain_graph=True)"),
    ({"root": "y", "gradient": {"kind": "onehot", "index": [2]}}, "y.backward(gradient=torch.tensor([0., 0., 1.]))"),
    ({"root": "y", "gradient": {"kind": "custom", "values": "[0.5, -2, 1e-05]"}},
     "y.backward(gradient=torch.tensor([0.5, -2., 1e-05]))"),
])
def test_backward_echoes_the_python_it_ran(session, request_, echo):
    session.run(VECTOR)
    streamed = []
    session.on_output = lambda stream, text: streamed.append((stream, text))
    result = session.backward(request_)
    assert result["ok"], result["error"]
    assert result["echo"] == echo
    assert streamed[0] == ("echo", f">>> {echo}\n")
    gradient = {"ones": [1, 1, 1], "onehot": None, "custom": [0.5, -2, 1e-05]}
    kind = (request_.get("gradient") or {"kind": "ones"})["kind"]
    weights = gradient[kind] if kind != "onehot" else np.eye(3)[1 if request_["gradient"]["index"] == 1 else 2]
    assert np.allclose(session.namespace["x"].grad.detach().numpy(), 2 * np.array([1.0, 2.0, 3.0]) * weights)


def test_backward_with_float64_and_big_one_hot(session):
    session.run("import torch\nd = torch.ones(2, requires_grad=True, dtype=torch.float64) * 2\n"
                "big = torch.ones(10, 10, requires_grad=True) * 3")
    assert session.backward({"root": "d", "gradient": {"kind": "custom", "values": "1 2"}})["echo"] == \
        "d.backward(gradient=torch.tensor([1., 2.], dtype=torch.float64))"
    result = session.backward({"root": "big", "gradient": {"kind": "onehot", "index": 23}})
    assert result["ok"], result["error"]
    assert result["echo"].splitlines() == ["_gradient = torch.zeros_like(big)", "_gradient[2, 3] = 1.0",
                                           "big.backward(gradient=_gradient)", "del _gradient"]
    assert "_gradient" not in session.namespace


def test_backward_imports_torch_when_the_namespace_has_none(session):
    session.run("from torch.autograd import Variable\nimport autograd_py as ag\n"
                "x = ag.ones(2, requires_grad=True)\ny = x * 2")
    result = session.backward({"root": "y", "gradient": {"kind": "ones"}})
    assert result["ok"], result["error"]
    assert result["echo"] == "import torch\ny.backward(gradient=torch.ones_like(y))"


@pytest.mark.parametrize("request_, code", [
    ({"root": "y", "gradient": {"kind": "custom", "values": "1, 2"}}, "vector_size"),
    ({"root": "y", "gradient": {"kind": "custom", "values": "1, 2, three"}}, "vector_syntax"),
    ({"root": "y", "gradient": {"kind": "custom", "values": "[1, 'a', 2]"}}, "vector_item"),
    ({"root": "y", "gradient": {"kind": "custom", "values": "[1, True, 2]"}}, "vector_item"),
    ({"root": "y", "gradient": {"kind": "custom", "values": "1e999, 0, 0"}}, "vector_nonfinite"),
    ({"root": "y", "gradient": {"kind": "custom", "values": "  "}}, "vector_empty"),
    ({"root": "y", "gradient": {"kind": "onehot", "index": 3}}, "bad_index"),
    ({"root": "y", "gradient": {"kind": "onehot", "index": True}}, "bad_index"),
    ({"root": "y", "gradient": {"kind": "nope"}}, "bad_kind"),
    ({"root": "y", "retain_graph": "yes"}, "bad_flag"),
    ({"root": "nothing"}, "no_tensor"),
    ({"root": "y.backward(); import os; y"}, "bad_name"),
    ({"root": "y", "watch": "ghost"}, "no_tensor"),
])
def test_bad_requests_run_nothing_and_say_why(session, request_, code):
    session.run(VECTOR + "s.backward(retain_graph=True)")
    before = session.namespace["x"].grad.numpy().copy()
    commands = session.commands
    result = strict_loads(session.request_json(json.dumps({"type": "backward", **request_})))
    assert result["ok"] is False and result["request_error"] is True
    assert result["error"]["code"] == code and result["error"]["message"]
    assert session.commands == commands
    assert np.array_equal(session.namespace["x"].grad.numpy(), before)


def test_parse_vector_accepts_nesting_and_plain_lists():
    assert parse_vector("[[1, 2], [3, 4]]", (2, 2)).tolist() == [[1, 2], [3, 4]]
    assert parse_vector("1 2 3 4", (4,)).tolist() == [1, 2, 3, 4]
    assert parse_vector("7", ()).tolist() == 7.0
    with pytest.raises(RequestError) as err:
        parse_vector("[1, 2, 3]", (2, 2))
    assert err.value.params == {"expected": 4, "got": 3, "shape": [2, 2]}


def test_real_errors_of_the_call_come_back_as_pytorch_raises_them(session):
    session.run("import torch\nc = torch.ones(2)")
    result = session.backward({"root": "c", "gradient": {"kind": "ones"}})
    assert result["error"]["type"] == "RuntimeError"
    assert result["error"]["message"] == "element 0 of tensors does not require grad and does not have a grad_fn"
    assert result["echo"] == "c.backward(gradient=torch.ones_like(c))"


# ---- Jacobian ---------------------------------------------------------------------------------

JAC = ("import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
       "w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)\ny = (x * x * w)[:2]\n")


def test_jacobian_rows_and_untouched_grads(session):
    session.run(JAC + "y.retain_grad()\ny.register_hook(lambda g: print('hook', g))\n")
    result = strict_loads(session.request_json(json.dumps({"type": "jacobian", "output": "y", "input": "x"})))
    assert result["ok"], result
    expected = np.zeros((2, 3))
    expected[0, 0], expected[1, 1] = 2 * 1.0 * 0.5, 2 * 2.0 * -1.0
    assert np.allclose(result["matrix"], expected)
    assert result["row_labels"] == ["y[0]", "y[1]"] and result["col_labels"] == ["x[0]", "x[1]", "x[2]"]
    assert result["calls"][1] == "torch.autograd.grad(y, x, grad_outputs=torch.tensor([0., 1.]), retain_graph=True)"
    assert session.namespace["x"].grad is None and session.namespace["y"]._grad is None
    assert session.eval_line("y.sum().backward()")["stdout"] == "hook tensor([1., 1.])\n"  # graph kept


def test_one_hot_backward_fills_the_jacobian_row_and_v_backward_is_vT_J(session):
    session.run(JAC)
    jac = session.jacobian("y", "x")
    row = session.backward({"root": "y", "gradient": {"kind": "onehot", "index": 1}, "retain_graph": True,
                            "watch": "x"})
    assert row["jacobian_row"] == {"output": "y", "input": "x", "row": 1, "values": jac["matrix"][1]}
    check = session.backward({"root": "y", "gradient": {"kind": "custom", "values": "3, -1"},
                              "retain_graph": True, "watch": "x"})["vjp_check"]
    assert check["match"] is True
    assert np.allclose(check["vjp"], np.array([3, -1]) @ np.array(jac["matrix"]))
    assert check["delta"] == check["vjp"]


def test_jacobian_errors(session):
    session.run(JAC + "big = torch.ones(100, requires_grad=True)\nz = x * 2\nz.sum().backward()\n")
    too_big = session.jacobian("big", "x")
    assert too_big["error"]["code"] == "jacobian_too_large"
    freed = session.jacobian("z", "x")
    assert freed["ok"] is False and "second time" in freed["error"]["message"]
    assert freed["failed_node"]["name"] == "MulBackward0"


# ---- node details ---------------------------------------------------------------------------------

def test_describe_a_node_and_an_accumulator(session):
    result = session.run(VECTOR)
    mul_id = node_named(result, "MulBackward0")[0]["id"]
    info = strict_loads(session.request_json(json.dumps({"type": "describe", "node": mul_id})))["node"]
    assert "def backward" in info["formula"]
    assert [(s["name"], s["state"]) for s in info["saved"]] == [("other", "alive"), ("self", "alive")]
    acc_id = next(n["id"] for n in result["graph"]["nodes"] if n["kind"] == "accumulate")
    acc = session.request_json(json.dumps({"type": "describe", "node": acc_id}))
    assert strict_loads(acc)["node"]["variable_names"] == ["x"]
    missing = strict_loads(session.request_json(json.dumps({"type": "describe", "node": "f1"})))
    assert missing["ok"] is False
    unknown = strict_loads(session.request_json(json.dumps({"type": "teleport"})))
    assert unknown["error"]["code"] == "bad_request"


# ---- a graph freed by the script's own backward (the Backward & Jacobian view's note) ----------

FREED_SCRIPT = (
    "import torch\n"
    "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
    "out = x * x\n"
    "kept = x * 3\n"
    "out.sum().backward()\n"
)


def test_a_run_says_which_graphs_are_freed_and_by_which_line(session):
    result = session.run(FREED_SCRIPT)
    ids = {row["names"][0]: row["id"] for row in result["graph"]["tensors"]}
    assert result["freed_tensors"] == [ids["out"]]  # kept's graph shares only the leaf
    assert result["freed_by"] == {"source": "<editor>", "line": 5, "call": "out.sum().backward()",
                                  "fix": {"line": 5, "before": "out.sum().backward()",
                                          "after": "out.sum().backward(retain_graph=True)"}}
    fixed = FREED_SCRIPT.replace("backward()", "backward(retain_graph=True)")
    result = session.run(fixed)
    assert result["freed_tensors"] == [] and result["freed_by"] is None
    reply = json.loads(session.request_json(json.dumps({"type": "backward", "root": "out", "gradient": {"kind": "ones"},
                                                        "retain_graph": True, "create_graph": False})))
    assert reply["ok"], reply["error"]


def test_a_graph_freed_in_the_console_has_no_editor_fix(session):
    session.run("import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()")
    result = session.eval_line("y.backward()")
    assert result["freed_by"] == {"source": "<console>", "line": 1, "call": "y.backward()", "fix": None}
    assert session.run("pass")["freed_by"] is None  # a new run forgets it


def test_retain_graph_fix_edits_only_the_call():
    from autograd_py.playground.freed_help import retain_graph_fix

    cases = {
        "loss.backward()": "loss.backward(retain_graph=True)",
        "y.backward(torch.ones(2))  # ü": "y.backward(torch.ones(2), retain_graph=True)  # ü",
        "y.backward(g, retain_graph=False)": "y.backward(g, retain_graph=True)",
        "gx, = torch.autograd.grad(y, [x])": "gx, = torch.autograd.grad(y, [x], retain_graph=True)",
        "é = 1; y.backward()": "é = 1; y.backward(retain_graph=True)",
    }
    for before, after in cases.items():
        assert retain_graph_fix(before, 1) == {"line": 1, "before": before, "after": after}
    assert retain_graph_fix("y.backward(retain_graph=True)", 1) is None
    assert retain_graph_fix("print(1)", 1) is None
    assert retain_graph_fix("y.backward(", 1) is None  # not Python
    assert retain_graph_fix("x = 1\ny.backward()", 3) is None


def test_version_counter_error_marks_the_node_that_saved_the_tensor(session):
    result = session.run("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x.exp()\n"
                         "y.add_(1)\ny.sum().backward()\n")
    assert "modified by an inplace operation" in result["error"]["message"]
    exp = session.namespace["y"].grad_fn.next_functions[0][0]  # AddBackward0 -> ExpBackward0
    # The in-place line is not the one that raised, so no one-line fix is offered.
    assert result["failed_node"] == {"id": f"f{id(exp)}", "name": "ExpBackward0", "how": "traceback",
                                     "kind": "version", "stage": "during", "fixes": []}
    steps = result["trace"]["steps"]
    assert [s["event"] for s in steps][-2:] == ["error", "end"]
    assert steps[-2] == {"event": "error", "node": f"f{id(exp)}", "name": "ExpBackward0", "kind": "version"}


def test_a_sequential_parameter_offered_by_the_graph_is_accepted(session):
    result = session.run("import torch\ntorch.manual_seed(0)\n"
                         "model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Tanh())\n"
                         "out = model(torch.ones(2)).sum()\n")
    assert ["model.0.weight"] in [row["names"] for row in result["graph"]["tensors"]]
    reply = json.loads(session.request_json(json.dumps({"type": "jacobian", "output": "out", "input": "model.0.weight"})))
    assert reply["ok"], reply["error"]
    assert reply["calls"][0].startswith("torch.autograd.grad(out, model[0].weight, ")
    w = session.namespace["model"][0].weight
    g, = session.namespace["torch"].autograd.grad(session.namespace["out"], w, retain_graph=True)
    assert np.allclose(np.array(reply["matrix"]).reshape(g.shape), g.numpy())
    reply = json.loads(session.request_json(json.dumps({"type": "backward", "root": "model.0.bias",
                                                        "gradient": {"kind": "ones"}, "retain_graph": True,
                                                        "create_graph": False})))
    assert reply["ok"] and reply["echo"] == "model[0].bias.backward(gradient=torch.ones_like(model[0].bias), retain_graph=True)"


def test_the_page_and_python_agree_on_the_largest_jacobian():
    """The Backward panel draws no table past the size Python refuses to build (backward_panel.js)."""
    import re
    from pathlib import Path
    from autograd_py.playground.backward import JACOBIAN_LIMIT

    source = (Path(__file__).resolve().parents[1] / "web/src/views/backward_panel.js").read_text(encoding="utf-8")
    assert re.search(r"export const JACOBIAN_LIMIT = (\d+);", source)[1] == str(JACOBIAN_LIMIT)
