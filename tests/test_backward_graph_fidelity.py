"""The graph a backward formula builds under create_graph, as PyTorch 2.13 builds it.

Each expectation was read off real PyTorch; the cases come from divergences the difftest generator found.
"""
import pytest

import autograd_py as torch


def _names(g):
    return g.grad_fn.name(), [None if f is None else f.name() for f, _ in g.grad_fn.next_functions]


@pytest.mark.parametrize("squeeze, nxt", [
    (lambda x: x.squeeze(), "UnsqueezeBackward0"),
    (lambda x: x.squeeze(0), "UnsqueezeBackward0"),
    (lambda x: x.squeeze((0, 2)), "UnsqueezeBackward0"),
    (lambda x: x.squeeze(-1), "UnsqueezeBackward0"),
    (lambda x: x.squeeze(1), "MulBackward0"),  # not size 1: the gradient passes through untouched
])
def test_squeeze_backward_unsqueezes_the_removed_dims(squeeze, nxt):
    a = torch.tensor([[[1.0], [3.0]]], requires_grad=True)
    g, = torch.autograd.grad((squeeze(a) * squeeze(a)).sum(), a, create_graph=True)
    assert _names(g) == ("AddBackward0", [nxt, nxt]) and g.flatten().tolist() == [2.0, 6.0]
    gg, = torch.autograd.grad(g.sum(), a)
    assert gg.flatten().tolist() == [2.0, 2.0]


def test_squeeze_of_a_0_dim_tensor_passes_the_gradient_through():
    s = torch.tensor(2.0, requires_grad=True)
    g, = torch.autograd.grad((s.squeeze(0) * s).sum(), s, create_graph=True)
    assert _names(g) == ("AddBackward0", ["MulBackward0", "MulBackward0"]) and g.item() == 4.0


def test_mv_backward_takes_the_outer_product_of_a_reshaped_gradient():
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = torch.tensor([1.0, -1.0], requires_grad=True)
    gm, gv = torch.autograd.grad((m.mv(v) ** 2).sum(), (m, v), create_graph=True)
    assert _names(gm) == ("MulBackward0", ["ViewBackward0", "torch::autograd::AccumulateGrad"])
    assert gm.tolist() == [[-2.0, 2.0], [-2.0, 2.0]]


@pytest.mark.parametrize("kwargs, xs, ws", [
    ({}, (2, 3, 8), (4, 3, 3)),
    ({"groups": 3, "dilation": 2}, (2, 3, 8), (6, 1, 3)),
    ({"stride": 2, "padding": 1}, (2, 3, 7), (4, 3, 3)),
])
def test_conv_double_backward_gives_the_weight_a_view_never_added_into_in_place(kwargs, xs, ws):
    torch.manual_seed(0)
    x = torch.randn(*xs, dtype=torch.float64, requires_grad=True)
    w = torch.randn(*ws, dtype=torch.float64, requires_grad=True)
    y = torch.nn.functional.conv1d(x, w, **kwargs)
    gs = torch.autograd.grad((y * y).sum(), [x, w], create_graph=True)
    gg = torch.autograd.grad(sum(g.sum() for g in gs), [x, w])
    assert [g._version for g in gg] == [1, 0]  # x: two fresh gradients summed in place; w: one is a view


@pytest.mark.parametrize("pool, shape", [
    (lambda x: torch.nn.functional.avg_pool2d(x, 2), (1, 2, 4, 4)),
    (lambda x: torch.nn.functional.avg_pool1d(x, 2), (1, 2, 6)),
    (lambda x: torch.nn.functional.adaptive_avg_pool1d(x, 3), (1, 2, 6)),
    (lambda x: torch.nn.functional.adaptive_avg_pool2d(x, 2), (1, 2, 4, 4)),
    (lambda x: torch.nn.functional.max_pool2d(x, 2), (1, 2, 4, 4)),
])
def test_pool_double_backward_zeros_for_the_input_are_written_and_then_added_into(pool, shape):
    x = torch.ones(*shape, requires_grad=True)
    y = pool(x)
    g1, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    gg, = torch.autograd.grad(g1.sum(), x)
    assert (g1._version, gg._version) == (0, 2)


@pytest.mark.parametrize("create_graph", [False, True])
def test_a_regenerated_views_backward_copies_into_a_zero_storage_and_hands_back_a_view(create_graph):
    x = torch.ones(5, 4, dtype=torch.float64, requires_grad=True)
    v = x[::2, 1::2]
    with torch.no_grad():
        x.exp_()
    g, = torch.autograd.grad((v * v).sum(), x, create_graph=create_graph)
    assert g._version == 1 and g._base is not None and abs(g.sum().item() - 12 * 2.718281828459045) < 1e-9
    if create_graph:
        assert _names(g) == ("AsStridedBackward0", ["torch::autograd::CopySlices"])
        gg, = torch.autograd.grad(g.sum(), x)
        assert gg.sum().item() == 12.0


def test_a_regenerated_expanded_views_backward_sums_the_expanded_dims_before_the_copy():
    x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    v = x.expand(2, 3)
    with torch.no_grad():
        x.t().add_(torch.tensor([[1.0]]))
    g, = torch.autograd.grad((v * v).sum(), x, create_graph=True)
    assert _names(g) == ("AsStridedBackward0", ["torch::autograd::CopySlices"]) and g._version == 1
    assert g.tolist() == [[8.0, 12.0, 16.0]]
    gg, = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [[4.0, 4.0, 4.0]]


@pytest.mark.parametrize("n, key", [(0, slice(None, None, 2)), (3, slice(3, None))])
def test_a_regenerated_empty_views_backward_is_plain_written_zeros(n, key):
    x = torch.zeros(n, dtype=torch.float64, requires_grad=True)
    v = x[key]
    with torch.no_grad():
        x.neg_()
    g, = torch.autograd.grad((v * v).sum(), x, create_graph=True)
    assert g.grad_fn is None and not g.requires_grad and g._version == 1 and g.tolist() == [0.0] * n


def test_index_add_scales_the_source_gradient_by_alpha_as_a_scalar_multiply():
    x = torch.zeros(3, 2, requires_grad=True)
    src = torch.ones(4, 2, requires_grad=True)
    y = x.index_add(0, torch.tensor([2, 0, 2, 1]), src, alpha=2)
    gx, gs = torch.autograd.grad((y * y).sum(), [x, src], create_graph=True)
    assert gs.grad_fn.name() == "MulBackward1" and gs.tolist() == [[16.0] * 2, [8.0] * 2, [16.0] * 2, [8.0] * 2]


def test_a_node_without_a_derivative_runs_first_and_raises_before_leaves_accumulate():
    # PyTorch builds its NotImplemented node without a sequence number (the maximum): of the ready
    # nodes it runs first, so x.grad stays None although StdBackward0 was ready before it.
    x = torch.tensor([2.0, 0.61, 1.52], requires_grad=True)
    q = (torch.tensor([-2.72, 0.86], requires_grad=True) * 3) // 2
    y = x.std() - q.amax()
    assert q.grad_fn.name() == "torch::autograd::NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::floor_divide is not implemented"):
        (y * y).backward()
    assert x.grad is None
