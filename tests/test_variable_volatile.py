"""The legacy ``volatile`` flag: PyTorch 2.13 only warns about it, with these exact texts."""
import warnings

import pytest

import autograd_py as torch
from autograd_py.autograd import Variable

REMOVED = "volatile was removed and now has no effect. Use `with torch.no_grad():` instead."
ALWAYS_FALSE = "volatile was removed (Variable.volatile is always False)"


def caught(fn):
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        result = fn()
    return result, [(w.category, str(w.message), w.filename) for w in log]


def test_volatile_true_warns_once_and_changes_nothing():
    v, log = caught(lambda: Variable(torch.ones(2), volatile=True))
    assert log == [(UserWarning, REMOVED, __file__)]
    assert not v.requires_grad and v.is_leaf
    (v * 2).sum()  # still an ordinary tensor


def test_volatile_false_is_silent():
    _, log = caught(lambda: Variable(torch.ones(2), volatile=False, requires_grad=True))
    assert log == []


def test_volatile_with_requires_grad_warns_then_raises():
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="^Variable can't be volatile and require_grad at the same time!$"):
            Variable(torch.ones(2), requires_grad=True, volatile=True)
    assert [str(w.message) for w in log] == [REMOVED]


def test_every_tensor_reads_volatile_as_false_with_a_warning():
    t = torch.ones(2, requires_grad=True)
    value, log = caught(lambda: t.volatile)
    assert value is False
    assert log == [(UserWarning, ALWAYS_FALSE, __file__)]


def test_setting_volatile_warns_and_is_ignored():
    t = torch.ones(2)

    def set_it():
        t.volatile = True
        return t.volatile

    value, log = caught(set_it)
    assert value is False
    assert [m for _, m, _ in log] == [REMOVED, ALWAYS_FALSE]
