"""The autograd errors the graph marks, and their quick fixes: what failed where, as JSON."""

import pytest

from autograd_py.playground import Session
from autograd_py.playground.quick_fixes import for_error


@pytest.fixture
def session():
    return Session()


def apply(code, fix):
    """``code`` with the fix applied as the page does: only to a line that still reads ``before``."""
    lines = code.splitlines()
    assert lines[fix["line"] - 1] == fix["before"]
    lines[fix["line"] - 1] = fix["after"]
    return "\n".join(lines) + "\n"


def by_kind(fixes):
    return {fix["kind"]: fix for fix in fixes}


def events(result):
    return [step["event"] for step in result["trace"]["steps"]]


# ---- in-place on a leaf ---------------------------------------------------------------------

LEAF_CODE = """\
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w * w).sum()
loss.backward()
w -= 0.1 * w.grad
print(w)
"""


def test_inplace_on_a_leaf_marks_the_leaf_and_offers_no_grad(session):
    result = session.run(LEAF_CODE)
    assert result["error"]["message"] == "a leaf Variable that requires grad is being used in an in-place operation."
    w = session.namespace["w"]
    failed = result["failed_node"]
    assert failed["id"] == f"t{id(w)}" and failed["name"] == "w"
    assert (failed["kind"], failed["stage"], failed["detail"]) == ("leaf_inplace", "forward",
                                                                   {"tensor": "w", "view": False})
    assert any(node["id"] == failed["id"] for node in result["graph"]["nodes"])
    # Not a backward error: the step-through keeps the pass that ran, which finished.
    assert events(result)[-1] == "end" and "error" not in events(result)
    # An update step (it reads w.grad): no_grad only, as a clone would lose w's gradient.
    assert [(fix["kind"], fix["line"], fix["after"]) for fix in failed["fixes"]] == [
        ("no_grad", 5, "with torch.no_grad(): w -= 0.1 * w.grad")]
    fixed = session.run(apply(LEAF_CODE, failed["fixes"][0]))
    assert fixed["ok"], fixed["error"]
    assert fixed["stdout"] == "tensor([0.8000, 1.6000], requires_grad=True)\n"


def test_inplace_on_a_leaf_that_is_computed_with_offers_a_clone_too(session):
    code = "import torch\nx = torch.ones(2, requires_grad=True)\nx.mul_(3)\n(x * x).sum().backward()\n"
    fixes = by_kind(session.run(code)["failed_node"]["fixes"])
    assert fixes["clone"]["after"] == "x = x.clone()\nx.mul_(3)"
    assert fixes["no_grad"]["after"] == "with torch.no_grad(): x.mul_(3)"
    assert session.run(apply(code, fixes["clone"]))["ok"]
    assert session.run(apply(code, fixes["no_grad"]))["ok"]


def test_inplace_on_a_view_of_a_leaf_marks_the_leaf_itself(session):
    code = "import torch as T\nx = T.zeros(3, requires_grad=True)\nfor i in range(3):\n    x[i] = i\n"
    result = session.run(code)
    assert result["error"]["message"].startswith("a view of a leaf Variable")
    failed = result["failed_node"]
    assert failed["id"] == f"t{id(session.namespace['x'])}"
    assert failed["detail"] == {"tensor": "x", "view": True}
    # The script's own name for torch, and the line's indentation, are kept.
    assert by_kind(failed["fixes"])["no_grad"]["after"] == "    with T.no_grad(): x[i] = i"
    assert session.run(apply(code, by_kind(failed["fixes"])["no_grad"]))["ok"]


def test_inplace_on_a_leaf_in_the_console_is_marked_without_an_editor_fix(session):
    session.run("import torch\nx = torch.ones(2, requires_grad=True)\n")
    result = session.eval_line("x.mul_(2)")
    assert result["failed_node"]["kind"] == "leaf_inplace"
    assert result["failed_node"]["fixes"] == []


def test_inplace_on_an_unnamed_leaf_is_explained_without_a_name(session):
    result = session.run("import torch\ntorch.ones(2, requires_grad=True).add_(1)\n")
    failed = result["failed_node"]
    assert failed["kind"] == "leaf_inplace" and failed["name"] is None
    assert not any(node["id"] == failed["id"] for node in result["graph"]["nodes"])
    assert [fix["kind"] for fix in failed["fixes"]] == ["no_grad"]  # no name to clone


# ---- backward() of a non-scalar ----------------------------------------------------------------

NONSCALAR_CODE = """\
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
y.backward()
print(x.grad)
"""


def test_nonscalar_backward_marks_the_output_and_ends_the_steps_with_the_error(session):
    result = session.run(NONSCALAR_CODE)
    assert result["error"]["message"] == "grad can be implicitly created only for scalar outputs"
    y = session.namespace["y"]
    failed = result["failed_node"]
    assert failed["id"] == f"t{id(y)}"
    assert (failed["kind"], failed["stage"], failed["detail"]) == ("nonscalar", "before", {"tensor": "y", "shape": [3]})
    # Nothing ran: the step-through holds the error alone, never "backward() finished".
    trace = result["trace"]
    assert trace["steps"] == [{"event": "error", "node": f"t{id(y)}", "name": "y", "kind": "nonscalar"},
                              {"event": "end"}]
    assert (trace["line"], trace["file"], trace["roots"]) == (4, "<editor>", [f"t{id(y)}"])
    fixes = by_kind(failed["fixes"])
    assert fixes["sum"]["after"] == "y.sum().backward()"
    assert fixes["ones_like"]["after"] == "y.backward(gradient=torch.ones_like(y))"
    for fix in failed["fixes"]:
        fixed = session.run(apply(NONSCALAR_CODE, fix))
        assert fixed["ok"], fixed["error"]
        assert fixed["stdout"] == "tensor([2., 4., 6.])\n"


def test_nonscalar_after_an_earlier_pass_does_not_show_that_pass_as_finished(session):
    code = "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 3).sum().backward()\n(x * 3).backward()\n"
    result = session.run(code)
    assert events(result) == ["error", "end"]
    assert result["trace"]["pass"] == 2
    # The output has no name: its mark is its grad_fn, and the fix sums it in parentheses.
    assert result["failed_node"]["name"] is None
    assert [fix["after"] for fix in result["failed_node"]["fixes"]] == ["(x * 3).sum().backward()"]


def test_nonscalar_fixes_for_autograd_backward_and_grad(session):
    code = "import torch\nx = torch.ones(2, requires_grad=True)\ny = 2 * x\ng, = torch.autograd.grad(y, x)\n"
    fixes = by_kind(session.run(code)["failed_node"]["fixes"])
    assert fixes["sum"]["after"] == "g, = torch.autograd.grad(y.sum(), x)"
    assert fixes["ones_like"]["after"] == "g, = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y))"
    for fix in fixes.values():
        assert session.run(apply(code, fix))["ok"]
    code = "import torch\nx = torch.ones(2, requires_grad=True)\ny = 2 * x\ntorch.autograd.backward(y)\n"
    fixes = by_kind(session.run(code)["failed_node"]["fixes"])
    assert fixes["ones_like"]["after"] == "torch.autograd.backward(y, grad_tensors=torch.ones_like(y))"
    assert session.run(apply(code, fixes["ones_like"]))["ok"]


def test_nonscalar_fix_keeps_the_other_arguments(session):
    code = "import torch\nx = torch.ones(2, requires_grad=True)\ny = 2 * x\ny.backward(retain_graph=True)\n"
    fixes = by_kind(session.run(code)["failed_node"]["fixes"])
    assert fixes["ones_like"]["after"] == "y.backward(gradient=torch.ones_like(y), retain_graph=True)"
    assert fixes["sum"]["after"] == "y.sum().backward(retain_graph=True)"


# ---- grad() of an unused input --------------------------------------------------------------------

UNUSED_CODE = """\
import torch
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(1.0, requires_grad=True)
y = x ** 3
gx, gw = torch.autograd.grad(y, [x, w])
print(gx, gw)
"""


def test_grad_of_an_unused_input_marks_that_input_after_the_pass(session):
    result = session.run(UNUSED_CODE)
    assert result["error"]["message"].startswith("The differentiated Tensor at index 1 appears to not have been used")
    failed = result["failed_node"]
    w = session.namespace["w"]
    assert failed["id"] == f"t{id(w)}"
    assert (failed["kind"], failed["stage"], failed["detail"]) == ("unused", "after", {"tensor": "w", "index": 1})
    # The pass ran (PowBackward0, then x's AccumulateGrad is skipped by grad()), then raised.
    steps = result["trace"]["steps"]
    assert events(result)[0] == "begin" and events(result)[-2:] == ["error", "end"]
    assert steps[-2] == {"event": "error", "node": f"t{id(w)}", "name": "w", "kind": "unused"}
    fixes = by_kind(failed["fixes"])
    assert fixes["allow_unused"]["after"] == "gx, gw = torch.autograd.grad(y, [x, w], allow_unused=True)"
    assert session.run(apply(UNUSED_CODE, fixes["allow_unused"]))["stdout"] == "tensor(12.) None\n"
    assert session.run(apply(UNUSED_CODE, fixes["materialize_grads"]))["stdout"] == "tensor(12.) tensor(0.)\n"


def test_unused_fix_turns_allow_unused_false_to_true(session):
    code = UNUSED_CODE.replace("[x, w])", "[x, w], allow_unused=False)")
    fixes = session.run(code)["failed_node"]["fixes"]
    assert [(f["kind"], f["after"]) for f in fixes] == [
        ("allow_unused", "gx, gw = torch.autograd.grad(y, [x, w], allow_unused=True)")]


# ---- a second backward: the fix is where the graph was freed ---------------------------------------

def test_freed_node_fix_is_at_the_call_that_freed_it_not_the_failing_one(session):
    code = ("import torch\nx = torch.tensor(2.0, requires_grad=True)\na = x * x\nb = a * x\n"
            "a.backward()\nb.backward()\n")
    result = session.run(code)
    failed = result["failed_node"]
    # b's MulBackward0 ran (and was freed) in the failing pass before a's raised.
    assert failed["id"] == f"f{id(session.namespace['a'].grad_fn)}"
    assert failed["fixes"] == [{"kind": "retain_graph", "line": 5, "before": "a.backward()",
                                "after": "a.backward(retain_graph=True)"}]
    assert session.run(apply(code, failed["fixes"][0]))["ok"]


# ---- the source edits alone ---------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "if True: x.add_(1)",  # a block starts on the line
    "x.add_(\n1)",  # the statement spans two lines
])
def test_no_leaf_fix_where_the_line_is_not_one_simple_statement(line):
    code = "x = 1\n" + line + "\n"
    assert for_error({"kind": "leaf_inplace", "detail": {"tensor": "x"}}, code, 2, "torch") == []


def test_leaf_fixes_need_a_torch_name_and_a_plain_name():
    failed = {"kind": "leaf_inplace", "detail": {"tensor": "x"}}
    assert [f["kind"] for f in for_error(failed, "x.add_(1)  # note", 1, None)] == ["clone"]
    failed = {"kind": "leaf_inplace", "detail": {"tensor": "model.weight"}}
    assert [f["after"] for f in for_error(failed, "model.weight.add_(1)", 1, "torch")] == [
        "with torch.no_grad(): model.weight.add_(1)"]


def test_nonscalar_fixes_never_repeat_a_call_and_skip_given_gradients():
    failed = {"kind": "nonscalar", "detail": {"tensor": None}}
    assert [f["kind"] for f in for_error(failed, "model(x).backward()", 1, "torch")] == ["sum"]
    assert for_error(failed, "y.backward(g)", 1, "torch") == []
    assert for_error(failed, "y.backward(", 1, "torch") == []  # not Python
    assert for_error({"kind": "version"}, "y.backward()", 1, "torch") == []


# ---- any other error of a backward call: the steps still end with it -------------------------------

def test_a_custom_backward_that_raises_is_marked_and_ends_the_steps(session):
    code = ("import torch\nclass F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
            "        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g[:1]\n"
            "x = torch.ones(2, requires_grad=True)\ny = F.apply(x)\ny.sum().backward()\n")
    result = session.run(code)
    assert result["error"]["message"].startswith("Function FBackward returned an invalid gradient at index 0")
    node = session.namespace["y"].grad_fn
    failed = result["failed_node"]
    assert (failed["id"], failed["name"], failed["kind"], failed["stage"], failed["fixes"]) == (
        f"f{id(node)}", "FBackward", "raised", "during", [])
    assert events(result)[-2:] == ["error", "end"]
    assert result["trace"]["steps"][-2]["node"] == f"f{id(node)}"


def test_a_backward_error_off_the_graph_still_ends_the_steps(session):
    code = ("import torch\nx = torch.ones(2, requires_grad=True)\n(x * x).sum().backward()\n"
            "x.detach().sum().backward()\n")
    result = session.run(code)
    assert result["error"]["message"].startswith("element 0 of tensors does not require grad")
    assert result["failed_node"] is None  # nothing on the graph to mark
    # The earlier pass finished; this one raised before it began, and the steps say so.
    assert result["trace"]["pass"] == 2
    assert result["trace"]["steps"] == [{"event": "error", "node": None, "name": "RuntimeError", "kind": "other"},
                                        {"event": "end"}]
    assert result["trace"]["roots"] == []
    # An error outside any backward call leaves the last pass as it was.
    result = session.run("import torch\nx = torch.ones(2, requires_grad=True)\n(x * x).sum().backward()\n1 / 0\n")
    assert result["failed_node"] is None and events(result)[-1] == "end" and "error" not in events(result)


def test_a_jacobian_of_a_freed_graph_offers_the_fix_where_it_was_freed(session):
    code = "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * x\ny.sum().backward()\n"
    session.run(code)
    result = session.jacobian("y", "x")
    assert not result["ok"]
    failed = result["failed_node"]
    assert (failed["id"], failed["kind"]) == (f"f{id(session.namespace['y'].grad_fn)}", "freed")
    assert failed["fixes"] == [{"kind": "retain_graph", "line": 4, "before": "y.sum().backward()",
                                "after": "y.sum().backward(retain_graph=True)"}]


def test_a_fix_tells_how_long_its_lines_comment_is(session):
    code = "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\ny.backward()   # vector: refused\n"
    fixes = by_kind(session.run(code)["failed_node"]["fixes"])
    comment = "# vector: refused"
    assert fixes["sum"] == {"kind": "sum", "line": 4, "before": "y.backward()   " + comment,
                            "after": "y.sum().backward()   " + comment, "comment": len(comment)}
    # A "#" inside a string is no comment.
    code = "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\ny.backward(); print('#')\n"
    assert all("comment" not in fix for fix in session.run(code)["failed_node"]["fixes"])
