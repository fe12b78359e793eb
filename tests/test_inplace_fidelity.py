"""In-place ops as PyTorch 2.13 runs them: version counters, node names, leaf and overlap checks.

Each expectation was read off real PyTorch; the cases come from divergences the difftest generator found.
"""
import warnings

import pytest

import autograd_py as torch


@pytest.mark.parametrize("op, name, shape", [
    (lambda c: c.unsqueeze_(-1), "UnsqueezeBackward1", (1, 2, 1, 1)),
    (lambda c: c.squeeze_(), "SqueezeBackward3", (2,)),
    (lambda c: c.squeeze_(0), "SqueezeBackward4", (2, 1)),
    (lambda c: c.squeeze_((0, 2)), "SqueezeBackward5", (2,)),
    (lambda c: c.transpose_(0, 2), "TransposeBackward1", (1, 2, 1)),
    (lambda c: c[0].t_(), "TBackward1", (1, 2)),
])
def test_inplace_view_ops_change_shape_bump_version_and_keep_the_gradient(op, name, shape):
    a = torch.tensor([[[1.0], [3.0]]], requires_grad=True)
    c = a * 1
    r = op(c)
    assert r.grad_fn.name() == name and tuple(r.shape) == shape and r._version == 1
    (r * r).sum().backward()
    assert a.grad.flatten().tolist() == [2.0, 6.0]


def test_inplace_view_op_on_a_view_keeps_the_base_history_and_on_a_leaf_refuses():
    a = torch.tensor([[1.0, 2.0]], requires_grad=True)
    v = (a * 1)[0]
    v.unsqueeze_(0)
    assert (v.grad_fn.name(), v.grad_fn.next_functions[0][0].name(), v._base.grad_fn.name()) == (
        "UnsqueezeBackward1", "SelectBackward0", "MulBackward0")
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        a.unsqueeze_(0)
    with torch.no_grad():
        a.unsqueeze_(0)
    assert tuple(a.shape) == (1, 1, 2) and a._version == 1 and a.is_leaf
    x = torch.zeros(3)
    assert x.unsqueeze_(0) is x and x._version == 1


def test_matmul_of_a_vector_and_a_matrix_squeezes_in_place():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    r = a @ m
    assert (r._version, r.grad_fn.name(), r.grad_fn._saved_dim, r._base) == (1, "SqueezeBackward4", 0, None)
    assert r.grad_fn.next_functions[0][0].name() == "MmBackward0"
    assert (a.detach() @ m.detach())._version == 1 and (m @ torch.ones(3))._version == 0


def test_random_factories_start_at_version_zero():
    assert [t._version for t in (torch.randn(3), torch.rand(2), torch.randint(0, 3, (2,)))] == [0, 0, 0]


def _grad_versions(out, x, **kwargs):
    return [g._version for g in torch.autograd.grad(out, [x], **kwargs)]


def test_the_engine_adds_a_later_gradient_in_place_only_into_a_buffer_it_alone_holds():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert _grad_versions(((x * 2) + (x * 3)).sum(), x) == [1]  # two fresh grads: one in-place add
    assert _grad_versions(((x * 2) + (x * 3) + x.exp()).sum(), x) == [2]
    assert _grad_versions((x * x).sum(), x) == [1]
    assert _grad_versions((x + x).sum(), x) == [0]  # one grad for both: the sum is a new tensor
    assert _grad_versions(x.sum(), x) == [0]
    g = torch.ones(3)
    assert _grad_versions(x + x * 2, x, grad_outputs=g) == [0] and g._version == 0  # the caller's g
    first, = torch.autograd.grad((x * x).sum(), x, create_graph=True)
    assert first._version == 0 and _grad_versions(first.sum(), x) == [1]


@pytest.mark.parametrize("op, versions", [
    (lambda x, y: x[[0, 1]], [1, None]),            # index_put_ into zeros
    (lambda x, y: x[x > 0], [1, None]),
    (lambda x, y: x.index_select(0, torch.tensor([1])), [1, None]),
    (lambda x, y: x.masked_select(x > 0), [1, None]),
    (lambda x, y: x.gather(1, torch.tensor([[0], [1]])), [1, None]),  # scatter_add_ into zeros
    (lambda x, y: x.max(), [1, None]),              # masked_fill_ into zeros
    (lambda x, y: x.max(1)[0], [2, None]),          # zeros, then scatter_
    (lambda x, y: x.sort(1)[0], [2, None]),
    (lambda x, y: x.topk(2, 0)[0], [2, None]),
    (lambda x, y: torch.maximum(x, y), [1, 1]),     # where(...).masked_fill_
    (lambda x, y: x[0], [0, None]),
])
@pytest.mark.parametrize("create_graph", [False, True])
def test_gradients_pytorch_builds_in_place_show_the_writes_in_their_version(op, versions, create_graph):
    x = torch.tensor([[1.0, -2.0, 3.0], [4.0, 0.5, -6.0]], requires_grad=True)
    y = torch.zeros(2, 3, requires_grad=True)
    gs = torch.autograd.grad(op(x, y).sum(), [x, y], allow_unused=True, create_graph=create_graph)
    assert [None if g is None else g._version for g in gs] == versions


INTERNAL = "more than one element of the written-to tensor refers to a single memory location"
PARTIAL = "some elements of the input tensor and the written-to tensor refer to a single memory location"


@pytest.mark.parametrize("statement, error", [
    ("v.add_(v.permute(1, 0))", PARTIAL), ("v.add_(v[0])", PARTIAL), ("v.t().add_(v)", PARTIAL),
    ("v.copy_(v.t())", PARTIAL), ("v.unsqueeze(0).add_(v)", PARTIAL), ("v.expand(2, 2, 2).add_(1)", INTERNAL),
    ("v[:1].expand(3, 2).copy_(torch.ones(3, 2))", INTERNAL),
    ("v.add_(v)", None), ("v[0].add_(v[1])", None), ("v[0].add_(v[:, 0])", None), ("v.add_(v.flip(0))", None),
    ("v[:1].expand(3, 2).zero_()", None), ("v[:1].expand(3, 2).fill_(2)", None), ("v.expand_as(v).add_(1)", None),
    ("v.add_(v.view(4).view(2, 2))", None), ("v[0:1].unsqueeze(1)[0:] = v[0]", None),
])
def test_inplace_overlap_rules_are_pytorchs(statement, error):
    v = torch.ones(2, 2)
    if error is None:
        exec(statement)
    else:
        with pytest.raises(RuntimeError, match=error):
            exec(statement)


def test_writes_through_an_expanded_view_reach_the_base():
    x = torch.ones(1)
    e = x.expand(2)
    e[0] = 5.0
    assert x.tolist() == [5.0]
    e.zero_()
    assert x.tolist() == [0.0] and x._version == 2


def test_every_saved_tensor_is_checked_before_a_node_runs():
    x = torch.tensor([[-1.81, -0.24, 0.79], [-2.89, 1.0, -1.83]], requires_grad=True)
    y = x.gather(-2, torch.zeros_like(x, dtype=torch.long))  # saves x, though its formula needs only the shape
    with torch.no_grad():
        x.neg_()
    with pytest.raises(RuntimeError, match=r"\[torch.FloatTensor \[2, 3\]\] is at version 1; expected version 0"):
        y.sum().backward()
    z = torch.tensor([1.0, 2.0], requires_grad=True).gather(0, torch.tensor([1])).sum()
    z.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        z.backward()


@pytest.mark.parametrize("make, name", [
    (lambda x: x.exp(), "Exp"), (lambda x: x.min(), "Min1"), (lambda x: x.max(), "Max1"),
    (lambda x: x ** torch.tensor([2.0, 3.0]), "Pow1"), (lambda x: torch.pow(2.0, x), "Pow2"),
])
def test_a_modified_saved_output_names_the_op_as_pytorch(make, name):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = make(x)
    z = y.exp()
    with torch.no_grad():
        y.mul_(2)
    with pytest.raises(RuntimeError, match=f"which is output 0 of {name}, is at version 1"):
        z.sum().backward()


def test_addcmul_saves_only_what_a_needed_formula_reads():
    a = torch.zeros(3, requires_grad=True)
    t1, t2 = torch.ones(3), torch.ones(3)
    out = a.addcmul(t1, t2)
    with torch.no_grad():
        t1.mul_(2)
        t2.mul_(2)
    out.sum().backward()  # neither tensor was saved: no version error
    assert a.grad.tolist() == [1.0, 1.0, 1.0] and out.grad_fn._saved_tensor1 is None


def test_an_overwritten_tensor_passes_back_zeros_without_history():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = x * 3
    w.zero_()
    g, = torch.autograd.grad((w * w).sum() + x.sum(), x, create_graph=True)
    assert g.tolist() == [1.0, 1.0] and g.grad_fn is None and not g.requires_grad  # zeros_like(grad)
    u = x * 1
    u.fill_(2.0)
    k, = torch.autograd.grad((u * float("inf")).sum() + x.sum(), x)
    assert k.tolist() == [1.0, 1.0]  # not 0 * inf
    c = x * 1
    c.copy_(torch.ones(2))
    k, = torch.autograd.grad((c * float("nan")).sum() + x.sum(), x)
    assert k.tolist() == [1.0, 1.0]


def test_a_view_taken_before_its_base_required_grad_is_an_unused_input():
    base = torch.tensor([[0.03]], dtype=torch.float64)
    view = base[0, 0]
    base.requires_grad_()
    g_base, g_view = torch.autograd.grad((base * 2).sum(), [base, view], allow_unused=True)
    assert g_base.tolist() == [[2.0]] and g_view is None
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        torch.autograd.grad((base * 2).sum(), [view])


def test_fill_names_and_fills_skip_the_overlap_checks():
    x = torch.zeros(2, 3, requires_grad=True)
    assert (x * 1).fill_(2).grad_fn.name() == "FillBackward2"
    assert (x * 1).fill_(torch.tensor(2.0)).grad_fn.name() == "FillBackward3"
    v3 = torch.tensor(2.0)
    v6 = v3[None]
    v6[0:] = v3  # a fill from a 0-dim value: no partial-overlap check
    assert v6.tolist() == [2.0]
    e = torch.tensor([1.0]).expand(3, 2)
    with pytest.warns(UserWarning, match="Use of masked_fill_ on expanded tensors is deprecated"):
        e.masked_fill_(torch.tensor([[False, True]] * 3), -2.0)
    assert e.tolist() == [[-2.0, -2.0]] * 3


def test_backward_from_a_view_made_under_no_grad_has_nothing_to_follow():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        v = (x * 2)[..., 1]
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"):
        v.backward(torch.ones_like(v))


def test_a_modified_saved_input_is_described_with_its_current_shape():
    x = torch.tensor([[-0.67, 1.71, -2.77], [-1.66, -1.5, 0.35]], requires_grad=True)
    y = x.addcmul(x, x, value=0.5)
    with torch.no_grad():
        x.unsqueeze_(0)
    with pytest.raises(RuntimeError, match=r"\[torch.FloatTensor \[1, 2, 3\]\] is at version 1"):
        y[0, 0].backward(torch.tensor(0.5))


def test_backward_through_a_write_into_an_expanded_view_is_refused_as_in_pytorch():
    x = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)
    w = (x * 1)[:1].expand(3)
    w.fill_(2.0)
    with pytest.raises(RuntimeError, match=INTERNAL):
        torch.autograd.grad(w.sum(), [x])
    u = x * 1
    u[:2].fill_(3.0)
    assert torch.autograd.grad(u.sum(), [x])[0].tolist() == [0.0, 0.0, 1.0]


def test_sgn_passes_back_an_efficient_zero_tensor_never_added_into_in_place():
    x = torch.tensor([[1.0, -2.0, 3.0]], requires_grad=True)
    z = x.sgn().grad_fn(torch.tensor([[float("inf"), float("nan"), 1.0]]))
    assert z._is_zerotensor() and z.clone().tolist() == [[0.0, 0.0, 0.0]]
    with pytest.raises(RuntimeError, match="unallocated storage"):
        z.tolist()  # no storage to list, as PyTorch's
    assert _grad_versions((x * 2 + x.sgn()).sum(), x) == [0]  # the zeros arrive first: a new sum
    assert _grad_versions((x.sgn() + x * 2).sum(), x) == [1]  # the zeros are added into x * 2's grad
    g, = torch.autograd.grad(x.sgn().sum(), x, create_graph=True)
    assert g.grad_fn is None and not g.requires_grad


def test_mv_passes_its_vector_gradient_through_mv_as_pytorch():
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
    v = torch.tensor([1.0, -1.0], dtype=torch.float64, requires_grad=True)
    _, gv = torch.autograd.grad(((m @ v) ** 2).sum(), [m, v], create_graph=True)
    assert gv.grad_fn.name() == "MvBackward0" and gv._version == 0 and gv.tolist() == [-8.0, -12.0]


def test_sort_along_a_leading_dim_gives_a_c_contiguous_result_so_overlap_checks_agree():
    x = torch.tensor([[0.286, -1.429], [-0.286, -0.857], [0.857, 1.429]], requires_grad=True)
    v = torch.sort(x, 0, descending=True)[0]
    assert v.is_contiguous()
    with torch.no_grad():
        last = v[..., -1:]
    v.copy_(last)  # a strided column of v: PyTorch cannot tell the overlap, so it runs
    assert v[:, 0].tolist() == v[:, 1].tolist()


def test_masked_select_saves_its_input():
    x = torch.tensor([0.22], requires_grad=True)
    y = torch.masked_select(x, torch.tensor([True]))
    with torch.no_grad():
        x.div_(2)
    with pytest.raises(RuntimeError, match=r"\[torch.FloatTensor \[1\]\] is at version 1; expected version 0"):
        y.sum().backward()


def test_an_inplace_view_op_under_no_grad_regenerates_the_views_history():
    x = torch.tensor([[-2.67, 1.24, -2.81]], requires_grad=True)
    v = (x + x)[-1]
    with torch.no_grad():
        v.unsqueeze_(0)
    assert (v.grad_fn.name(), v.grad_fn.next_functions[0][0].name(), v._version, tuple(v.shape)) == (
        "AsStridedBackward0", "AddBackward0", 1, (1, 3))
    (v * v).sum().backward()
    assert x.grad.flatten().tolist() == pytest.approx([-21.36, 9.92, -22.48])


def test_copy_from_its_own_memory_skips_the_overlap_check():
    # PyTorch's copy_ returns early when src is the written-to tensor itself, even an expanded one;
    # autograd still records the write (version 1, the view's history regenerated).
    y = torch.tensor([2.0], requires_grad=True).clone().expand(2)
    y.copy_(y)
    assert (y._version, y.grad_fn.name(), y.tolist()) == (1, "AsStridedBackward0", [2.0, 2.0])
    z = torch.zeros(1).expand(3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        z.copy_(z.clone())


def test_grad_of_a_stale_view_warns_as_a_non_leaf():
    # The view's grad_fn is only regenerated (here: raises) when read; PyTorch's .grad still sees a non-leaf.
    v0 = torch.tensor([[-0.05]], dtype=torch.float64, requires_grad=True)
    v1 = v0.split(1, -2)[0]
    with torch.no_grad():
        v0.pow_(2)
    with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed"):
        assert v1.grad is None
    b = torch.tensor([1.0, 2.0], requires_grad=True).clone()
    with torch.no_grad():
        w = b[:1]  # no history: stays a leaf after its base is written
    b.mul_(2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert w.grad is None


def test_a_masked_write_into_an_expanded_tensor_writes_only_the_masked_elements():
    e = torch.tensor([1]).unsqueeze(0).expand(3, 1)
    with pytest.warns(UserWarning, match="Use of masked_fill_ on expanded tensors"):
        e.masked_fill_(torch.tensor([[True], [True], [False]]), 2)
    assert e.tolist() == [[2], [2], [2]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = torch.zeros(1).expand(3)
        x[torch.tensor([True, False, True])] = 4.0
        y = torch.zeros(1).expand(3)
        y[torch.tensor([0, 2])] = torch.tensor([1.0, 2.0])
    assert x.tolist() == [4.0] * 3 and y.tolist() == [2.0] * 3
    assert [str(w.message).split(" on ")[0] for w in caught] == [
        "Use of index_put_", "Use of masked_fill_", "Use of index_put_"]
    z = torch.zeros(1).expand(3)
    with pytest.raises(RuntimeError, match=INTERNAL):
        z[1:] = 4.0  # a 0-dim value is a fill_ with a tensor, which PyTorch runs as copy_
    z.fill_(4.0)
    assert z.tolist() == [4.0] * 3


def test_an_empty_tensor_has_no_memory_overlap():
    e = torch.tensor([]).unsqueeze(0).expand(2, 0)
    assert e.relu_()._version == 1
    v = torch.stack([torch.tensor([], requires_grad=True)] * 2)
    assert v.mul_(v).grad_fn.name() == "MulBackward0"


def test_an_inplace_op_in_a_wider_dtype_casts_each_inputs_gradient_to_its_own_dtype():
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    w = torch.tensor([[3.0, 4.0]], dtype=torch.float64, requires_grad=True)
    y = x * 1
    y.mul_(w)
    y.sum().backward()
    assert (w.grad.dtype, w.grad.tolist(), x.grad.tolist()) == (torch.float64, [[1.0, 2.0]], [[3.0, 4.0]])


def test_an_input_reading_memory_the_op_writes_sees_the_earlier_writes_as_pytorchs_loop():
    v1 = torch.tensor([[-0.06, -1.7], [1.16, 0.49]], requires_grad=True)
    with torch.no_grad():
        v1.mul_(v1.split(1, -1)[0])  # a column: PyTorch cannot tell the overlap, and loops
    assert v1.flatten().tolist() == pytest.approx([0.0036, -0.00612, 1.3456, 0.659344])
    x = torch.arange(12.0).reshape(3, 4)
    x[:, 1:].add_(x[:, :-1])
    assert x.tolist() == [[0.0, 1.0, 3.0, 6.0], [4.0, 9.0, 15.0, 22.0], [8.0, 17.0, 27.0, 38.0]]
    x = torch.arange(12.0).reshape(3, 4)
    x[:, 1:] = x[:, :-1]
    assert x.tolist() == [[0.0] * 4, [4.0] * 4, [8.0] * 4]


def test_a_0dim_transposes_view_is_regenerated_after_a_write_to_its_base():
    v0 = torch.tensor(1.64, dtype=torch.float64, requires_grad=True)
    v9 = v0.transpose(0, -1)
    with torch.no_grad():
        v0.mul_(-1.5)
    (v9 * v9).sum().backward()
    assert v9.grad_fn.name() == "AsStridedBackward0" and v0.grad.item() == pytest.approx(-4.92)


def test_a_write_through_a_tensor_regenerates_the_views_of_its_detach_aliases():
    # program 510:1157: detach() shares the version counter, so a view of the alias whose version
    # moved reads its base's history anew (AsStridedBackward0), whichever of the two was written.
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    alias = x.detach().requires_grad_()
    v = alias.squeeze()
    with torch.no_grad():
        x.mul_(2)
    assert type(v.grad_fn).__name__ == "AsStridedBackward0" and v._version == 1
    assert v.grad_fn.next_functions[0][0].variable is alias
    w = x[1:]
    with torch.no_grad():
        alias.add_(1)
    assert type(w.grad_fn).__name__ == "AsStridedBackward0" and w.tolist() == [5.0, 7.0]


def test_a_view_made_under_no_grad_requires_grad_as_its_root_base_does():
    # program 519:1916: a view given requires_grad_() of a base that does not require grad passes
    # nothing on: PyTorch's view requires_grad reads the root base
    base = torch.tensor([1.0, 2.0])
    v = base.t()
    v.requires_grad_()
    with torch.no_grad():
        w = v[None]
        u = torch.ones(2, requires_grad=True)[None][0]
    assert v.requires_grad and not w.requires_grad and w.is_leaf
    assert u.requires_grad


def test_an_in_place_op_on_a_view_given_requires_grad_of_a_plain_leaf_is_refused():
    # program 521:441: PyTorch's check_inplace asks whether the view requires grad and its base is a
    # leaf, whether or not the base itself requires grad
    v = torch.ones(3, 2, dtype=torch.float64).unsqueeze(-2)
    v.requires_grad_()
    with pytest.raises(RuntimeError, match="^a view of a leaf Variable that requires grad is being used in an in-place"):
        v.mul_(2)
    with torch.no_grad():
        v.mul_(2)
    assert v._version == 1


@pytest.mark.parametrize("op", [lambda v: v.permute(0, 0), lambda v: v.expand(3, 3, 3), lambda v: v.expand(3),
                                lambda v: v.view(7, -1), lambda v: v.permute(5), lambda v: v.sum(5),
                                lambda v: v.mean(-3), lambda v: torch.cat([v, torch.ones(4, 5)]),
                                lambda v: torch.cat([v.sum(), v])])
def test_a_stale_no_grad_view_raises_its_error_before_a_view_ops_own_checks(op):
    # program 513:1930: PyTorch reads the input's grad_fn (collecting edges) before the kernel checks
    x = torch.tensor([[-1.72, -1.4], [0.02, 1.92]], dtype=torch.float64, requires_grad=True)
    with torch.no_grad():
        v = x.view(-1)
        x.relu_()
    with pytest.raises(RuntimeError, match="^A view was created in no_grad mode and its base or another view"):
        op(v)


def test_a_no_grad_view_requires_grad_once_its_base_gets_history_and_then_refuses_use():
    # program 540:96: the base gains history by copy_ of a tensor that requires grad; the no_grad view
    # now requires grad through it, so using it reads its grad_fn and raises the view error
    base = torch.arange(6.0)
    with torch.no_grad():
        v = base.narrow(-1, 4, 1)
    base.copy_(torch.tensor(2.0, requires_grad=True) * 1)
    assert v.requires_grad
    with pytest.raises(RuntimeError, match="^A view was created in no_grad mode and its base or another view"):
        (v * v).sum()
