"""PyTorch's other names (``ops/aliases.py``) under vmap: each batched call equals the op run one
example at a time (their values and nodes outside vmap are in the golden api_24_other_names)."""
import numpy as np
import pytest

import autograd_py as torch

CALLS = {
    "swapdims": lambda t: torch.swapdims(t, 0, 1), "swapdims method": lambda t: t.swapdims(1, 0),
    "fix": torch.fix, "ravel": torch.ravel, "ravel of a transposed view": lambda t: t.t().ravel(),
    "greater": lambda t: torch.greater(t, 0.1), "less_equal": lambda t: t.less_equal(0.1),
    "not_equal": lambda t: torch.not_equal(t, 0.2), "positive": torch.positive, "absolute": lambda t: t.absolute(),
}


@pytest.mark.parametrize("name", CALLS)
def test_an_alias_under_vmap_is_the_op_per_example(name):
    f = CALLS[name]
    x = torch.tensor(np.arange(24.0).reshape(2, 3, 4) / 5 - 1)
    batched = torch.vmap(f)(x)
    expected = torch.stack([f(x[i]) for i in range(2)])
    assert batched.dtype == expected.dtype and batched.tolist() == expected.tolist()


def test_positive_refuses_a_bool_tensor_as_pytorch_does():
    with pytest.raises(RuntimeError, match="The `\\+` operator, on a bool tensor is not supported."):
        torch.positive(torch.tensor([True]))


@pytest.mark.parametrize("name", ["floor", "ceil", "trunc", "round", "fix"])
def test_rounding_an_integer_tensor_keeps_it_and_bool_has_no_kernel(name):
    # ATen hands integers back in their dtype; NumPy 2.0 (Pyodide's) returned float64 for them, so
    # torch.fix(torch.tensor([3, -4])) printed a float tensor in the page only
    f = getattr(torch, name)
    for dtype in (torch.int64, torch.int32, torch.uint8):
        x = torch.tensor([3, 4, 200], dtype=dtype)
        out = f(x)
        assert out.dtype == dtype and out.tolist() == [3, 4, 200] and out.data_ptr() != x.data_ptr()
    kernel = "trunc" if name == "fix" else name
    with pytest.raises(NotImplementedError, match=f"\"{kernel}_vml_cpu\" not implemented for 'Bool'"):
        f(torch.tensor([True]))
