"""Values and results where PyTorch 2.13 runs: cases the difftest generator found us crashing on or
computing differently. Each expectation was read off real PyTorch."""
import pytest

import autograd_py as torch


@pytest.mark.parametrize("fn", [torch.softmax, torch.log_softmax])
def test_softmax_of_an_empty_integer_tensor_is_an_empty_tensor_of_its_dtype(fn):
    for x in (torch.zeros(0, dtype=torch.long), torch.zeros(2, 0, dtype=torch.long), torch.zeros(0, dtype=torch.bool)):
        r = fn(x, 0)
        assert (r.dtype, tuple(r.shape)) == (x.dtype, tuple(x.shape))
    with pytest.raises(NotImplementedError, match="\"softmax_lastdim_kernel_impl\" not implemented for 'Long'"):
        torch.softmax(torch.tensor([1, 2]), 0)
