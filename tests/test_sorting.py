"""sort/argsort/msort/topk and index_add: PyTorch's orders (stable, NaN largest), nodes and gradients."""
import math

import numpy as np
import pytest

import autograd_py as torch

NAN = float("nan")


def test_sort_is_stable_and_puts_nan_last_ascending_first_descending():
    x = torch.tensor([3., 1., 2., 1., NAN, 3.])
    values, indices = x.sort()
    assert indices.tolist() == [1, 3, 2, 0, 5, 4]
    assert values.tolist()[:5] == [1., 1., 2., 3., 3.] and math.isnan(values.tolist()[5])
    down = torch.sort(x, descending=True)
    assert down.indices.tolist() == [4, 0, 5, 2, 1, 3]
    assert x.argsort(descending=True).tolist() == down.indices.tolist()
    assert torch.tensor([2, 1, 2, 1]).sort(descending=True).indices.tolist() == [0, 2, 1, 3]


def test_sort_returns_pytorch_named_tuple():
    result = torch.tensor([3., 1., 2.]).sort()
    assert type(result).__name__ == "sort" and isinstance(result, tuple)
    assert repr(result) == ("torch.return_types.sort(\nvalues=tensor([1., 2., 3.]),\n"
                            "indices=tensor([1, 2, 0]))")
    zero_dim = torch.tensor(5.).sort()
    assert zero_dim.values.shape == () and zero_dim.indices.item() == 0


def test_sort_node_names_and_saved_values():
    x = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)
    values = x.sort().values
    fn = values.grad_fn
    assert type(fn).__name__ == "SortBackward0"
    assert fn._saved_dim == 2 ** 64 - 1 and fn._saved_self_sym_sizes == (2, 3)
    assert fn._saved_indices.tolist() == [[1, 2, 0], [0, 2, 1]]
    assert type(x.sort(stable=False).values.grad_fn).__name__ == "SortBackward1"
    assert type(x.topk(2).values.grad_fn).__name__ == "TopkBackward0"
    assert type(torch.msort(x).grad_fn).__name__ == "SortBackward0"


def test_sort_gradient_goes_back_to_where_each_value_came_from():
    v = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
    s = v.sort().values
    (s * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert v.grad.tolist() == [100.0, 1.0, 10.0]


def test_sort_double_backward():
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = (x.sort(descending=True).values ** 3 * torch.tensor([1., 2., 3.])).sum()
    g, = torch.autograd.grad(y, x, create_graph=True)
    g.sum().backward()
    weights = np.array([2., 3., 1.])  # the weight each x lands on
    np.testing.assert_allclose(x.grad.numpy(), 6 * weights * x.detach().numpy(), rtol=1e-6)


def test_topk_values_indices_and_errors():
    x = torch.tensor([[1., 4., 2.], [9., 0., 5.]])
    largest = x.topk(2)
    assert largest.values.tolist() == [[4., 2.], [9., 5.]] and largest.indices.tolist() == [[1, 2], [0, 2]]
    assert x.topk(1, dim=0, largest=False).indices.tolist() == [[0, 1, 0]]
    with pytest.raises(RuntimeError, match="^selected index k out of range$"):
        x.topk(4)


def test_index_add_out_of_place_with_alpha_and_repeated_indices():
    a = torch.zeros(3, 2, requires_grad=True)
    src = torch.ones(2, 2, requires_grad=True)
    out = a.index_add(0, torch.tensor([0, 0]), src, alpha=2)
    assert out.tolist() == [[4., 4.], [0., 0.], [0., 0.]]
    fn = out.grad_fn
    assert type(fn).__name__ == "IndexAddBackward0"
    assert (fn._saved_alpha, fn._saved_dim, fn._saved_source_dim) == (2, 0, 2)
    assert fn._saved_index.tolist() == [0, 0]
    (out * torch.tensor([[1.], [2.], [3.]])).sum().backward()
    assert a.grad.tolist() == [[1., 1.], [2., 2.], [3., 3.]]
    assert src.grad.tolist() == [[2., 2.], [2., 2.]]


def test_index_add_in_place_bumps_version_and_moves_grad_fn():
    base = torch.zeros(3)
    before = base._version
    base.index_add_(0, torch.tensor([2, 0]), torch.tensor([1., 2.]))
    assert base.tolist() == [2., 0., 1.] and base._version == before + 1
    z = torch.zeros(3, requires_grad=True).clone()
    src = torch.tensor([5.], requires_grad=True)
    z.index_add_(0, torch.tensor([1]), src)
    assert type(z.grad_fn).__name__ == "IndexAddBackward0"
    z.sum().backward()
    assert src.grad.tolist() == [1.]


def test_index_add_dtype_mismatch_is_pytorch_error():
    with pytest.raises(RuntimeError) as info:
        torch.tensor([1, 2]).index_add(0, torch.tensor([0]), torch.tensor([1.]))
    assert str(info.value) == "index_add_(): self (Long) and source (Float) must have the same scalar type"


def test_torch_docs_sort_example_with_a_custom_function():
    class SortWithIndices(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            values, idx = x.sort()
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(x, idx)
            return values, idx

        @staticmethod
        def backward(ctx, g1, g2):
            x, idx = ctx.saved_tensors
            grad_input = torch.zeros_like(x)
            grad_input.index_add_(0, idx, g1)
            return grad_input

    v = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
    s, i = SortWithIndices.apply(v)
    assert not i.requires_grad
    (s * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert v.grad.tolist() == [100.0, 1.0, 10.0]


@pytest.mark.parametrize("seed", range(20))
def test_gcc_selection_picks_the_k_best_values(seed):
    from autograd_py.ops._stl_select import topk_row
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    values = rng.integers(0, 4, n).astype(float).tolist()
    k = int(rng.integers(1, n + 1))
    for largest in (True, False):
        for ordered in (True, False):
            picked = topk_row(values, k, largest, ordered)
            assert len(set(picked)) == k
            chosen = [values[i] for i in picked]
            assert sorted(chosen) == sorted(sorted(values, reverse=largest)[:k])
            if ordered:
                assert chosen == sorted(chosen, reverse=largest)


def test_topk_without_ties_is_the_sorted_prefix_and_unsorted_keeps_the_set():
    x = torch.tensor([[0.3, -1.0, 2.5, 0.9, 1.7], [4.0, 3.0, -2.0, 0.0, 1.0]])
    top = x.topk(3)
    expected = np.argsort(-x.numpy(), axis=1)[:, :3]
    assert top.indices.tolist() == expected.tolist()
    loose = x.topk(3, sorted=False)
    assert [sorted(r) for r in loose.indices.tolist()] == [sorted(r) for r in expected.tolist()]


def test_value_selecting_backward_is_a_scatter_node_under_create_graph():
    w = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)
    for values in (w.max(1).values, w.sort(1).values, w.topk(2).values):
        g, = torch.autograd.grad((values ** 2).sum(), w, create_graph=True)
        assert type(g.grad_fn).__name__ == "ScatterBackward0"
        assert g.grad_fn.next_functions[0] == (None, 0)
