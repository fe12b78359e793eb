"""nn.ParameterList / nn.ParameterDict beyond golden norm_05: registration through the module API,
state_dict round trips, plain dicts added in sorted key order, and the containers' errors."""
from collections import OrderedDict

import pytest

import autograd_py as T

nn = T.nn


def test_parameter_list_registers_and_round_trips():
    pl = nn.ParameterList([T.ones(2), nn.Parameter(T.zeros(3))])
    assert [name for name, _ in pl.named_parameters()] == ["0", "1"]
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in pl)
    other = nn.ParameterList([T.zeros(2), T.ones(3)])
    other.load_state_dict(pl.state_dict())
    assert other[0].tolist() == [1.0, 1.0] and other[1].tolist() == [0.0, 0.0, 0.0]
    pl += [T.ones(1)]
    assert len(pl) == 3 and len(pl[::2]) == 2 and isinstance(pl[::2], nn.ParameterList)
    assert "0" not in dir(pl)


def test_parameter_dict_order_and_operations():
    pd = nn.ParameterDict({"w": T.ones(2), "b": T.zeros(1)})
    assert list(pd) == ["b", "w"]  # a plain dict is added sorted
    pd.update(OrderedDict([("z", T.ones(1)), ("a", T.ones(1))]))
    assert list(pd.keys()) == ["b", "w", "z", "a"]
    assert [n for n, _ in pd.named_parameters()] == ["b", "w", "z", "a"]
    key, value = pd.popitem()
    assert key == "a" and "a" not in pd and isinstance(value, nn.Parameter)
    merged = pd | {"q": T.ones(1)}
    assert list(merged) == ["b", "w", "z", "q"] and list(pd) == ["b", "w", "z"]
    pd.clear()
    assert len(pd) == 0 and list(pd.parameters()) == []


def test_errors():
    with pytest.raises(RuntimeError, match="^ParameterList should not be called.$"):
        nn.ParameterList()(1)
    with pytest.raises(IndexError, match="^index 2 is out of range$"):
        nn.ParameterList([T.ones(1), T.ones(1)])[2]
    with pytest.raises(TypeError, match="^ParameterList.extend should be called with an iterable, but got Tensor$"):
        nn.ParameterList().extend(T.ones(2))
    with pytest.raises(ValueError, match="^ParameterDict update sequence element #0 has length 3; 2 is required$"):
        nn.ParameterDict([("a", T.ones(1), 3)])
    with pytest.raises(TypeError, match="not a string"):
        nn.ParameterDict()[0]
