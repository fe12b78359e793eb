"""Sessions sharing one Python runtime (the embeds of a course page) do not see each other's settings."""

import autograd_py
from autograd_py.playground import Session


def out(session, code):
    """Runs ``code`` in the session's current namespace (not a fresh script), like the console."""
    result = session.run(code, fresh=False)
    assert result["error"] is None, result["error"]
    return result["stdout"]


def test_namespaces_are_separate():
    a, b = Session(), Session()
    out(a, "x = 1")
    result = b.run("print(x)")
    assert result["error"]["type"] == "NameError"


def test_grad_mode_set_in_one_session_stays_there():
    a, b = Session(), Session()
    out(a, "import torch\ntorch.set_grad_enabled(False)")
    assert out(b, "import torch\nprint(torch.is_grad_enabled())") == "True\n"
    assert out(a, "print(torch.is_grad_enabled())") == "False\n"
    assert autograd_py.is_grad_enabled()  # the process outside any session is untouched


def test_default_dtype_seed_and_print_options_are_per_session():
    a, b = Session(), Session()
    out(a, "import torch\ntorch.set_default_dtype(torch.float64)\ntorch.set_printoptions(precision=2)")
    assert out(b, "import torch\nprint(torch.tensor([1/3]), torch.tensor([1/3]).dtype)") == \
        "tensor([0.3333]) torch.float32\n"
    assert out(a, "print(torch.tensor([1/3]), torch.tensor([1/3]).dtype)") == "tensor([0.33]) torch.float64\n"
    # The same seed gives the same numbers whatever the other session drew in between.
    first = out(a, "torch.manual_seed(7)\nprint(torch.rand(3))")
    out(b, "print(torch.rand(100))")
    assert out(a, "torch.manual_seed(7)\nprint(torch.rand(3))") == first


def test_generator_state_and_cached_normal_are_per_session():
    a, b = Session(), Session()
    out(a, "import torch\ntorch.manual_seed(0)\nx = torch.randn(1)")  # caches Box-Muller's second value
    out(b, "import torch\ntorch.manual_seed(5)\nprint(torch.randn(3), torch.rand(100).sum())")
    # What PyTorch prints for the second randn(1) and then rand(2) after manual_seed(0).
    assert out(a, "print(torch.randn(1), torch.rand(2))") == "tensor([-0.2934]) tensor([0.3074, 0.6341])\n"
    assert Session().run("import torch\nprint(torch.initial_seed())")["stdout"] != \
        Session().run("import torch\nprint(torch.initial_seed())")["stdout"]  # fresh sessions: like new processes


def test_anomaly_mode_is_per_session():
    a, b = Session(), Session()
    out(a, "import torch\ntorch.autograd.set_detect_anomaly(True)")
    assert out(b, "import torch\nprint(torch.is_anomaly_enabled())") == "False\n"
    assert out(a, "print(torch.is_anomaly_enabled())") == "True\n"


def test_warn_once_warnings_show_once_per_session():
    code = ("import torch\n"
            "x = torch.ones(1, requires_grad=True)\n"
            "y = torch.autograd.grad((x * x).sum(), x, create_graph=True)\n"
            "(y[0] * 1).sum().backward(create_graph=True)\n")
    a, b = Session(), Session()
    first = a.run(code)["stderr"]
    assert "create_graph=True" in first
    assert a.run(code, fresh=False)["stderr"] == ""  # once per process, as in PyTorch
    assert b.run(code)["stderr"] == first  # b is a process of its own
    assert a.run(code)["stderr"] == first  # a fresh run is a new process too


def test_reset_gives_a_fresh_process_settings():
    a = Session()
    out(a, "import torch\ntorch.set_grad_enabled(False)\ntorch.set_default_dtype(torch.float64)")
    a.request_json('{"type": "reset"}')
    assert out(a, "import torch\nprint(torch.is_grad_enabled(), torch.get_default_dtype())") == \
        "True torch.float32\n"


def test_views_requests_use_the_sessions_settings():
    a, b = Session(), Session()
    out(a, "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * 3).sum()")
    out(b, "import torch\ntorch.set_grad_enabled(False)")
    reply = a.request_json('{"type": "backward", "root": "y", "retain_graph": false, "create_graph": false}')
    assert '"ok": true' in reply
    assert out(a, "print(x.grad)") == "tensor([3., 3.])\n"
