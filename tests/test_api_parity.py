"""Factories, devices, ``Tensor.to``, ``numpy()`` and 0-dim indexing: PyTorch's values and errors.

Each expression of ``tests/api_parity/exprs.py`` was evaluated under torch 2.13.0 by
``tests/api_parity/record.py``; here it must give the same repr, or the same error type and message.
"""
import json
import pathlib
import sys

import pytest

import autograd_py

HERE = pathlib.Path(__file__).resolve().parent / "api_parity"
EXPECTED = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))
sys.path.insert(0, str(HERE))
from record import evaluate  # noqa: E402


@pytest.mark.parametrize("expression", sorted(EXPECTED))
def test_expression_matches_pytorch(expression):
    assert evaluate(autograd_py, expression) == EXPECTED[expression]
