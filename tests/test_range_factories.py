"""``arange``, ``linspace`` and ``logspace`` give PyTorch's values to the last bit.

``tests/ranges/values.json`` was recorded from torch 2.13.0 by ``tests/ranges/record.py``.
"""
import base64
import json
import pathlib

import numpy as np
import pytest

import autograd_py as torch

CASES = json.loads((pathlib.Path(__file__).parent / "ranges" / "values.json").read_text())["cases"]


def _call(case):
    kwargs = {} if case["dtype"] is None else {"dtype": getattr(torch, case["dtype"])}
    return getattr(torch, case["fn"])(*case["args"], **kwargs)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['fn']}{tuple(c['args'])}-{c['dtype']}")
def test_values_match_pytorch_bit_for_bit(case):
    got = _call(case)
    assert str(got.dtype) == case["result_dtype"]
    expected = np.frombuffer(base64.b64decode(case["values"]), dtype=got.numpy().dtype.newbyteorder("<"))
    assert got.shape == (expected.size,)
    differ = got.numpy().view(np.uint8).reshape(expected.size, -1) != expected.view(np.uint8).reshape(expected.size, -1)
    bad = np.flatnonzero(differ.any(axis=1))
    assert bad.size == 0, f"elements {bad[:5]} differ: {got.numpy()[bad[:3]]!r} vs torch's {expected[bad[:3]]!r}"


def test_arange_length_follows_the_double_quotient():
    # (1 - 0) / 0.1 is exactly 10.0 in double precision, so there are 10 values, 1.0 excluded.
    assert torch.arange(0, 1, 0.1).shape == (10,)
    assert torch.arange(0, 0.3, 0.1).shape == (3,)
    assert torch.arange(1, 2.5, 0.5).tolist() == [1.0, 1.5, 2.0]


def test_linspace_steps_from_both_ends():
    # PyTorch's kernel walks from start for the first half and back from end for the second, in
    # float32, so linspace(-1, 1, 7) has -2.98e-08 in the middle rather than 0.
    values = torch.linspace(-1, 1, 7).tolist()
    assert values[0] == -1.0 and values[-1] == 1.0
    assert values[3] == -2.9802322387695312e-08
    assert values[:3] == [-1.0, -0.6666666269302368, -0.3333333134651184]


@pytest.mark.parametrize("call, message", [
    (lambda: torch.arange(0, 5, 0), "step must be nonzero"),
    (lambda: torch.arange(5, 0), "upper bound and lower bound inconsistent with step sign"),
    (lambda: torch.linspace(0, 1, -1), "number of steps must be non-negative"),
])
def test_range_errors(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == message
