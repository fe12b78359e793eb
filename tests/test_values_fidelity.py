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


def test_vector_norms_add_in_order_in_the_input_dtype_as_pytorchs_reduction():
    torch.manual_seed(0)
    x = torch.randn(3, 5, 7) * 3
    assert x.norm(p=1).item() == 248.326904296875  # NumPy's pairwise float32 sum gives 248.32687377929688
    assert x.norm(p=3).item() == 16.608381271362305
    assert x.norm(p=0).item() == 105.0 and x.norm(p=0, dim=1).tolist()[0] == [5.0] * 7
    assert x.norm(p=-float("inf")).item() == x.abs().min().item()


def test_repr_of_a_view_whose_grad_fn_cannot_be_regenerated_says_invalid():
    v0 = torch.tensor([0.24], requires_grad=True)
    v2 = v0.split(1, 0)[0]
    with torch.no_grad():
        v0.clamp_(-1, 1)
    assert repr(v2) == "tensor([0.2400], grad_fn=<Invalid>)"
    with pytest.raises(RuntimeError, match="Output 0 of Split is a view"):
        v2.grad_fn
