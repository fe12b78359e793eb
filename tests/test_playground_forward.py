"""The playground's forward-mode half: the forward view's JSON and the forward-vs-reverse panel."""
import numpy as np
import pytest

from autograd_py.playground.session import Session

DUAL_CODE = """import torch
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2., 3.])
v = torch.tensor([1., 0., 0.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    y = d.sin() * d
    out, jvp = fwAD.unpack_dual(y)
"""


@pytest.fixture
def session():
    return Session()


def test_forward_view_draws_each_op_with_value_and_tangent(session):
    result = session.run(DUAL_CODE)
    assert result["ok"], result["error"]
    view = result["forward"]
    assert [op["label"] for op in view["ops"]] == ["Sin", "Mul"]
    # sin's JVP is derived from its backward (auto_element_wise); mul's is derivatives.yaml's own formula
    assert [op["rule"] for op in view["ops"]] == ["element_wise", "jvp"]
    tensors = {t["id"]: t for t in view["tensors"]}
    sin_op, mul_op = view["ops"]
    dual = tensors[sin_op["inputs"][0]]
    assert dual["names"] == ["d"] and dual["tangent"]["values"] == [1.0, 0.0, 0.0]
    assert mul_op["inputs"] == [sin_op["outputs"][0], sin_op["inputs"][0]]  # forward edges: sin(d), then d
    y = tensors[mul_op["outputs"][0]]
    assert y["names"] == ["y"]
    # d/dx (x sin x) = sin x + x cos x, pushed along e_0
    np.testing.assert_allclose(y["tangent"]["values"], [np.sin(1) + np.cos(1), 0, 0], rtol=1e-6)


def test_code_without_dual_tensors_has_no_forward_view(session):
    result = session.run("import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()")
    assert result["ok"] and result["forward"] is None


def test_a_level_left_open_does_not_leak_into_the_next_run(session):
    first = session.run("import torch.autograd.forward_ad as fwAD\nfwAD.enter_dual_level()")
    assert first["ok"]
    second = session.run("import torch.autograd.forward_ad as fwAD\nprint(fwAD.enter_dual_level())")
    assert second["ok"], second["error"]
    assert second["stdout"] == "0\n"


def test_forward_and_reverse_jacobians_agree_and_count_passes(session):
    assert "f" in session.run("import torch\ndef f(x):\n    return torch.tanh(x)[0] * 2\n"
                              "x = torch.tensor([[1., -2., .5], [0.3, 0.1, 2.]])\n")["functions"]
    result = session.compare_modes("f", "x")
    assert result["ok"], result
    assert (result["forward_passes"], result["reverse_passes"]) == (6, 3)  # n input columns, m output rows
    forward, reverse = np.array(result["forward"]), np.array(result["reverse"])
    assert forward.shape == reverse.shape == (3, 6)
    expected = np.zeros((3, 6))
    x = np.array([1., -2., .5])
    expected[[0, 1, 2], [0, 1, 2]] = 2 * (1 - np.tanh(x) ** 2)
    np.testing.assert_allclose(forward, expected, rtol=1e-6)
    np.testing.assert_allclose(reverse, expected, rtol=1e-6)
    assert result["agree"] and result["col_labels"][4] == "x[1, 1]"
    assert result["forward_calls"][0] == "torch.func.jvp(f, (x,), (e_0,))"


def test_the_panel_refuses_what_is_not_a_function_or_tensor(session):
    session.run("import torch\nx = torch.ones(2)\nk = torch.arange(3)\ndef f(x):\n    return x\n")
    assert session.compare_modes("x", "x")["error"]["code"] == "not_callable"
    assert session.compare_modes("g", "x")["error"]["code"] == "no_function"
    assert session.compare_modes("f", "k")["error"]["code"] == "not_float"
    assert session.compare_modes("f", "nope")["error"]["code"] == "no_tensor"


def test_an_error_in_the_learners_function_comes_back_as_an_error(session):
    session.run("import torch\nx = torch.ones(2)\ndef f(x):\n    return x.view(3)\n")
    result = session.compare_modes("f", "x")
    assert not result["ok"] and result["error"]["type"] == "RuntimeError"
