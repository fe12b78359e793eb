"""Strides of new tensors as PyTorch 2.13 lays them out (they decide is_contiguous, and whether a
later reshape is a view or a copy). Each expectation was read off real PyTorch."""
import pytest

import autograd_py as torch

A = torch.tensor([[3, 0, -1], [1, 2, 3]])
B = torch.zeros(2, 3, 4, dtype=torch.int64)


@pytest.mark.parametrize("make, strides", [
    (lambda: A.expand(2, 2, 3), (6, 3, 1)),  # overlapping: contiguous
    (lambda: A.t(), (1, 3)),  # dense: its strides kept
    (lambda: A[:, ::2], (2, 1)),
    (lambda: A.t()[::2], (1, 2)),  # not dense: infer_dense_strides keeps the dims' order
    (lambda: B.permute(2, 0, 1)[::2], (1, 6, 2)),
    (lambda: B.transpose(0, 2)[:, ::2], (1, 4, 8)),
    (lambda: B[:, None].expand(2, 5, 3, 4).permute(3, 1, 0, 2), (1, 12, 60, 4)),
    (lambda: B[:, 1:, 1:].transpose(1, 2), (6, 1, 3)),
])
def test_a_dtype_conversion_preserves_the_layout_as_pytorch(make, strides):
    v = make()
    assert v.float().stride() == strides and v.double().stride() == strides
    assert v.float().tolist() == v.tolist()


def test_clone_preserves_and_masked_fill_and_scalar_pow_are_contiguous():
    x = torch.tensor([[0.04, 0.16, -1.29], [-1.0, 2.0, 2.07]]).t()
    assert x.clone().stride() == (1, 3) and x[::2].clone().stride() == (1, 2)
    assert x.masked_fill(x > 0, 0.0).stride() == (2, 1)
    assert (2 ** x).stride() == (2, 1) and (x ** 2).stride() == (1, 3)
    assert (2 ** torch.tensor(1.5)).shape == ()
    v = torch.tensor([[0.5, 1.0]], requires_grad=True).t()
    assert (2 ** v).reshape(-1).grad_fn.name() == "ViewBackward0"


@pytest.mark.parametrize("a, b, dtype", [(1.0, 0.0, torch.float32), (1, 0, torch.int64), (1, 2.5, torch.float32)])
def test_where_with_two_numbers_has_their_result_type(a, b, dtype):
    c = torch.tensor([[True, False], [False, True]])
    r = torch.where(c, a, b)
    assert r.dtype == dtype and r.tolist() == [[a, b], [b, a]]


def test_cat_and_stack_write_into_a_contiguous_output():
    x = torch.tensor([[0.379, 0.303, 1.832], [0.77, -0.551, 0.381]], requires_grad=True).t()
    assert torch.stack([x, x]).stride() == (6, 2, 1) and torch.cat([x, x], 1).stride() == (4, 1)
    assert torch.stack([x, x], 2).stride() == (4, 2, 1)
    torch.stack([x, x]).view(-1).mul_(2)  # a view, as in PyTorch (a copy would be needed otherwise)


def test_softmax_outputs_and_their_gradients_are_contiguous():
    x = torch.tensor([[[-0.863, 0.276, 0.999]], [[1.922, 1.245, 0.689]]], requires_grad=True).transpose(0, -1)
    for f in (lambda t: t.softmax(1), lambda t: t.log_softmax(-3)):
        y = f(x)
        assert y.stride() == (2, 2, 1) and y.reshape(1, 6).grad_fn.name() == "ViewBackward0"
        g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
        assert g.reshape(-1).grad_fn.name() == "ViewBackward0"


P = torch.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)  # dense, not contiguous
T = torch.arange(24.0).reshape(2, 3, 4).transpose(1, 2)
E = torch.arange(12.0).reshape(1, 3, 4).expand(3, 3, 4)  # overlapping


@pytest.mark.parametrize("x, f, strides", [
    (P, lambda x: x.sum(1, keepdim=True), (3, 3, 1)),  # reductions write contiguous outputs
    (P, lambda x: x.sum(1), (3, 1)),
    (T, lambda x: x.mean(0, keepdim=True), (12, 3, 1)),
    (T, lambda x: x.std(0), (3, 1)),
    (P, lambda x: x.norm(dim=1, keepdim=True), (3, 3, 1)),
    (P, lambda x: x.logsumexp(1, keepdim=True), (3, 3, 1)),
    (P, lambda x: x.cumsum(1), (6, 3, 1)),
    (P, lambda x: x.sort(1)[0], (1, 12, 4)),  # sort and flip write into empty_like(self)
    (T, lambda x: x.sort(1)[1], (12, 1, 4)),
    (P, lambda x: x.topk(1, 1)[0], (3, 3, 1)),
    (T, lambda x: x.flip(0), (12, 1, 4)),
    (E, lambda x: x.sigmoid(), (12, 4, 1)),  # elementwise on an expanded input: contiguous
    (E, lambda x: torch.nn.functional.gelu(x), (12, 4, 1)),
    (P, lambda x: x.sigmoid(), (1, 12, 4)),
])
def test_reductions_sort_flip_and_activations_lay_out_their_outputs_as_pytorch(x, f, strides):
    assert f(x).stride() == strides
