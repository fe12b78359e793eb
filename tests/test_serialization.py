"""``torch.save`` / ``torch.load``: round trips, shared storage, weights_only as in PyTorch 2.13."""
import io
import pickle

import pytest

import autograd_py as torch
from autograd_py import nn


def roundtrip(obj, **load_kwargs):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return torch.load(buffer, **load_kwargs)


def test_tensor_keeps_dtype_values_and_requires_grad():
    for t in (torch.tensor([1.5, -2.0]), torch.tensor([1, 2], dtype=torch.int32),
              torch.tensor([[True, False]]), torch.ones(2, 3, dtype=torch.float64, requires_grad=True)):
        got = roundtrip(t)
        assert got.dtype == t.dtype and got.shape == t.shape and got.tolist() == t.tolist()
        assert got.requires_grad == t.requires_grad and got.is_leaf


def test_state_dict_round_trip_into_a_new_module():
    model = nn.Linear(3, 2)
    with torch.no_grad():
        model.weight.copy_(torch.arange(6.).reshape(2, 3))
    state = roundtrip(model.state_dict())
    assert type(state).__name__ == "OrderedDict" and list(state) == ["weight", "bias"]
    fresh = nn.Linear(3, 2)
    assert str(fresh.load_state_dict(state)) == "<All keys matched successfully>"
    assert fresh.weight.tolist() == model.weight.tolist() and fresh.bias.tolist() == model.bias.tolist()
    assert fresh.weight.requires_grad


def test_views_share_storage_after_loading():
    x = torch.arange(6.).reshape(2, 3)
    base, row, transposed, again = roundtrip([x, x[1], x.t(), x])
    row[0] = 100.0
    assert base.tolist() == [[0.0, 1.0, 2.0], [100.0, 4.0, 5.0]]
    assert transposed.tolist() == [[0.0, 100.0], [1.0, 4.0], [2.0, 5.0]]
    assert again is base


def test_parameters_stay_parameters():
    p = nn.Parameter(torch.ones(2))
    got = roundtrip({"p": p, "frozen": nn.Parameter(torch.zeros(1), requires_grad=False)})
    assert type(got["p"]) is nn.Parameter and got["p"].requires_grad
    assert type(got["frozen"]) is nn.Parameter and not got["frozen"].requires_grad


def test_plain_values_dtypes_and_sizes_load_with_weights_only():
    obj = {"epoch": 3, "loss": 0.25, "name": "run", "tags": (1, 2), "dtype": torch.float64,
           "size": torch.Size([2, 3])}
    assert roundtrip(obj) == obj


def test_a_whole_module_needs_weights_only_false():
    model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    with pytest.raises(pickle.UnpicklingError) as info:
        roundtrip(model)
    message = str(info.value)
    assert message.startswith("Weights only load failed.")
    assert "Unsupported global: GLOBAL torch.nn.modules.container.Sequential was not an allowed global" in message
    loaded = roundtrip(model, weights_only=False)
    assert type(loaded) is nn.Sequential and loaded[0].weight.tolist() == model[0].weight.tolist()


class Custom:
    def __init__(self):
        self.value = 7


def test_safe_globals_allow_a_class():
    with pytest.raises(pickle.UnpicklingError):
        roundtrip(Custom())
    with torch.serialization.safe_globals([Custom]):
        assert roundtrip(Custom()).value == 7
    assert Custom not in torch.serialization.get_safe_globals()


def test_save_to_a_path(tmp_path):
    path = tmp_path / "model.pt"
    torch.save({"w": torch.tensor([1.0, 2.0])}, path)
    torch.save(torch.tensor([3.0]), str(tmp_path / "t.pt"))
    assert torch.load(path)["w"].tolist() == [1.0, 2.0]
    assert torch.load(str(tmp_path / "t.pt")).tolist() == [3.0]


def test_a_model_class_defined_in_the_playground_saves_and_loads():
    # As in a script: the class lives in the learner's __main__, which for pickle is not the
    # interpreter's __main__ here; weights_only refuses it with PyTorch's message naming it.
    from autograd_py.playground import Session

    session = Session()
    result = session.run(
        "import io\nimport torch\nfrom torch import nn\n"
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(2, 1)\n"
        "buf = io.BytesIO()\ntorch.save(Net(), buf)\nbuf.seek(0)\n"
        "print(type(torch.load(buf, weights_only=False)) is Net)\nbuf.seek(0)\ntorch.load(buf)\n")
    assert result["stdout"] == "True\n"
    assert result["error"]["type"] == "UnpicklingError"
    assert "Unsupported global: GLOBAL __main__.Net was not an allowed global" in result["error"]["message"]
