"""Playground sessions keep their own default device and inference mode, as separate processes would."""
from autograd_py.playground import Session


def test_default_device_stays_in_its_session():
    a, b = Session(), Session()
    assert a.run("import torch\ntorch.set_default_device('cuda')")["error"] is None
    assert b.run("import torch\nprint(torch.zeros(1).device)")["stdout"] == "cpu\n"
    error = a.run("torch.zeros(1)", fresh=False)["error"]
    assert (error["type"], error["message"]) == ("AssertionError", "Torch not compiled with CUDA enabled")
    a.reset()
    assert a.run("import torch\nprint(torch.get_default_device())")["stdout"] == "cpu\n"


def test_inference_mode_entered_by_hand_stays_in_its_session():
    a, b = Session(), Session()
    a.run("import torch\nmode = torch.inference_mode()\nmode.__enter__()")
    assert a.eval_line("print(torch.is_inference_mode_enabled())")["stdout"] == "True\n"
    assert b.run("import torch\nprint(torch.is_inference_mode_enabled(), torch.is_grad_enabled())")["stdout"] \
        == "False True\n"
