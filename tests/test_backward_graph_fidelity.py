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


def _next(g):
    return [None if f is None else f.name() for f, _ in g.grad_fn.next_functions]


@pytest.mark.parametrize("reduce, data, top, nxt", [
    # prod_safe_zeros_backward: grad * (exclusive cumprod * reversed exclusive cumprod)
    (lambda x: x.prod(1, keepdim=True), [[1.0, 0.0, 2.0], [3.0, 4.0, 0.5]], "MulBackward0",
     ["AddBackward0", "MulBackward0"]),
    (lambda x: x.prod(-1), [0.0, 1.5, 2.0], "MulBackward0", ["UnsqueezeBackward0", "MulBackward0"]),
    (lambda x: x.prod(1), [[1.0], [0.0]], "UnsqueezeBackward0", ["AddBackward0"]),  # a size-1 dim: grad itself
    (lambda x: x.prod(), [[1.0, 0.0], [3.0, 0.0]], "ViewBackward0", ["MulBackward0"]),
    (lambda x: x.prod(), [0.0], "ViewBackward0", ["AddBackward0"]),
])
def test_prod_with_zeros_builds_prod_safe_zeros_backward(reduce, data, top, nxt):
    x = torch.tensor(data, dtype=torch.float64, requires_grad=True)
    y = reduce(x)
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert (g.grad_fn.name(), _next(g)) == (top, nxt)
    # the products of the others: the gradient of y*y is 2 y times them
    others = [[(x.detach().flatten().tolist()[j] if j != i else 1.0) for j in range(x.numel())] for i in range(x.numel())]
    if reduce(torch.ones(x.shape)).numel() == 1:
        expected = [2 * y.item() * torch.tensor(row).prod().item() for row in others]
        assert g.flatten().tolist() == expected


def test_dot_multiplies_the_0_dim_gradient_as_it_is():
    a = torch.tensor([-1.0, 1.5, 2.0], requires_grad=True)
    b = torch.tensor([0.5, -2.0, 1.0], requires_grad=True)
    y = torch.dot(a, b)
    ga, gb = torch.autograd.grad(y * y, [a, b], create_graph=True)
    assert _next(ga) == ["AddBackward0", "torch::autograd::AccumulateGrad"]
    assert ga.tolist() == [2 * y.item() * v for v in b.tolist()]


def test_lerps_one_minus_weight_is_atens_scalar_minus_tensor():
    a, b = torch.zeros(3, requires_grad=True), torch.ones(3, requires_grad=True)
    w = torch.tensor([0.25, 0.5, 1.0], requires_grad=True)
    ga, = torch.autograd.grad(torch.lerp(a, b, w).sum(), a, create_graph=True)
    assert (ga.grad_fn.name(), _next(ga)) == ("MulBackward0", [None, "SubBackward0"])
    assert ga.tolist() == [0.75, 0.5, 0.0]


@pytest.mark.parametrize("a, b, names", [
    (torch.tensor([[-1.26]]), torch.tensor([[2.0]]), ("TBackward0", "TBackward0")),  # 1x1: column-major too
    (torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).t(),
     ("MmBackward0", "TBackward0")),
    (torch.tensor([[1.0, 2.0], [3.0, 4.0]]).t(), torch.tensor([[1.0], [2.0]]), ("TBackward0", "MmBackward0")),
])
def test_mm_gives_a_column_major_operand_its_gradient_as_a_transpose(a, b, names):
    a, b = a.detach().requires_grad_(), b.detach().requires_grad_()
    for y in (torch.mm(a, b), torch.addmm(torch.zeros(a.shape[0], b.shape[1]), a, b)):
        ga, gb = torch.autograd.grad(y.sum(), [a, b], create_graph=True)
        assert (ga.grad_fn.name(), gb.grad_fn.name()) == names
        assert ga.tolist() == torch.ones(y.shape).mm(b.detach().t()).tolist()
        assert gb.tolist() == a.detach().t().mm(torch.ones(y.shape)).tolist()


def test_mm_saves_each_operands_strides_for_its_own_gradient():
    a, b = torch.ones(2, 3, requires_grad=True), torch.ones(3, 2)
    node = torch.mm(a, b).grad_fn
    assert node._saved_self_sym_strides == (3, 1) and node._saved_mat2_sym_strides == ()


@pytest.mark.parametrize("f", [lambda x: x.expand_as(x), lambda x: x.amax(0), lambda x: x.amin(-1)])
def test_a_0_dim_inputs_gradient_is_summed_into_it(f):
    # sum_to sums into a 0-dim shape even from a 0-dim gradient; amax's restore_reduced_dims gives
    # the 0-dim input a dim back, which the engine sums away
    x = torch.tensor(2.5, dtype=torch.float64, requires_grad=True)
    y = f(x)
    g, = torch.autograd.grad(y * y, x, create_graph=True)
    assert g.grad_fn.name() == "SumBackward0" and g.shape == () and g.item() == 5.0


def test_var_without_degrees_of_freedom_multiplies_by_a_default_dtype_where():
    x = torch.tensor([[-0.91]], dtype=torch.float64, requires_grad=True)
    with pytest.warns(UserWarning):
        y = x.var()
    g, = torch.autograd.grad(y * y, x, create_graph=True)
    assert (g.grad_fn.name(), _next(g)) == ("ToCopyBackward0", ["MulBackward0"]) and g.dtype == torch.float64


@pytest.mark.parametrize("f, inner", [(torch.sigmoid, [None, "AddBackward1"]), (torch.tanh, [None, "MulBackward0"])])
def test_sigmoid_and_tanh_double_backwards_follow_derivatives_yaml(f, inner):
    x = torch.tensor([0.1, 0.2], requires_grad=True)
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    g2, = torch.autograd.grad(g.sum(), x, create_graph=True)
    mul = g2.grad_fn.next_functions[0][0]
    assert mul.name() == "MulBackward0" and [None if n is None else n.name() for n, _ in mul.next_functions] == inner


def test_a_non_leaf_reshaped_in_place_under_no_grad_gets_gradients_of_its_grad_fns_shape():
    # PyTorch checks a gradient against the metadata its grad_fn recorded: a leading size-1 dim is
    # summed away; a shape that does not reduce to it is refused with PyTorch's message
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x * 2
    with torch.no_grad():
        y.unsqueeze_(0)
    (y.reshape(-1) ** 2).sum().backward()
    assert x.grad.tolist() == [[8.0, 16.0], [24.0, 32.0]]
    s = x.sum(0)
    with torch.no_grad():
        s.unsqueeze_(1)
    with pytest.raises(RuntimeError, match=r"Function MulBackward0 returned an invalid gradient at index 0 - "
                                           r"got \[2, 3\] but expected shape compatible with \[2\]"):
        (s * torch.ones(2, 3)).sum().backward()


def test_a_stale_no_grad_views_error_comes_before_a_broadcast_error():
    # PyTorch collects its inputs' edges (reading grad_fn) before the kernel checks the shapes
    x = torch.tensor([[0.49, 1.33, -1.67], [-1.99, -1.72, 0.53]], requires_grad=True)
    y = x * 1
    with torch.no_grad():
        v = y.mT
        v.unsqueeze_(0)
    with pytest.raises(RuntimeError, match="^A view was created in no_grad mode and its base or another view"):
        v + torch.ones(7)
    with torch.no_grad(), pytest.raises(RuntimeError, match="^The size of tensor a"):
        v + torch.ones(7)


def test_pows_backward_with_a_bool_exponent_refuses_exponent_minus_1():
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    y = x ** torch.tensor([True, False])
    assert y.tolist() == [2.0, 1.0]
    with pytest.raises(RuntimeError, match="^Subtraction, the `-` operator, with a bool tensor is not supported"):
        y.sum().backward()


def test_to_copy_backward_casts_before_the_engine_sums_to_a_shape_changed_in_place():
    # program 512:1767: _to_copy_backward casts the gradient itself; the engine then sums it to the
    # 0-dim shape the leaf had (unsqueeze_ under no_grad since), so SumBackward0 sits over ToCopyBackward0
    x = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
    keep = x ** 0  # its graph holds the accumulator made while x was 0-dim  # noqa: F841
    with torch.no_grad():
        x.unsqueeze_(0)
    y = x.float()
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    assert g.shape == () and g.dtype == torch.float64
    assert [type(g.grad_fn).__name__, type(g.grad_fn.next_functions[0][0]).__name__] == ["SumBackward0", "ToCopyBackward0"]


def test_where_with_a_number_casts_an_integer_tensor_with_history_by_a_recorded_to():
    # program 510:1460: where(cond, int_t, 0.0) casts int_t with .to() (ToCopyBackward0) first;
    # with two tensors the kernel casts unrecorded
    v = torch.tensor(-0.74, requires_grad=True)
    n = torch.tensor([[2]])
    n[0] = v
    names = lambda t: [type(f).__name__ if f is not None else None for f, _ in t.grad_fn.next_functions]
    assert names(torch.where(n > 1, n, 0.0)) == ["ToCopyBackward0", None]
    assert names(torch.where(n > 1, 0.5, n)) == [None, "ToCopyBackward0"]
    assert names(torch.where(n > 1, n, torch.tensor([[1.5]], requires_grad=True)))[0] == "CopySlices"
