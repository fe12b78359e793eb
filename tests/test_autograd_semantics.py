"""The autograd rules learners trip on, asserted exactly as PyTorch 2.13 behaves.

Every expected value, name and message here was taken from a scratch run under real torch and
written down as a literal; ``test_torch_parity.py`` re-checks a sample against torch directly.
"""
import re
import sys
import warnings

import numpy as np
import pytest

import autograd_py as T
from autograd_py import engine
from torch_cases import BACKWARD_TWICE, ENGINE_ORDER, GRAD_FN_NAMES, REPRS, leaves

FREED = ("Trying to backward through the graph a second time (or directly access saved tensors after they have "
         "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
         "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
         "if you need to access saved tensors after calling backward.")
NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
    "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
    "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information. "
    "(Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)")
HINT = (" Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False).")


def version_error(desc, op, found=1, expected=0):
    return ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"[{desc}], which is output 0 of {op}, is at version {found}; expected version {expected} instead."
            + HINT)


def raises(exc, message):
    """pytest.raises for exactly ``message`` (the whole text, not a search)."""
    return pytest.raises(exc, match="^" + re.escape(message) + "$")


def values(t):
    return t.detach().numpy().tolist()


def edges(fn):
    return [(n.name() if n is not None else None, i) for n, i in fn.next_functions]


ACC = "torch::autograd::AccumulateGrad"


# ---------------------------------------------------------------------------- .grad of leaves and non-leaves
def test_leaf_gradients_accumulate_across_backward_calls():
    x = T.tensor([1., 2., 3.], requires_grad=True)
    (x * x).sum().backward()
    assert values(x.grad) == [2., 4., 6.]
    (x * x).sum().backward()
    assert values(x.grad) == [4., 8., 12.]
    x.grad.zero_()
    (x * 3).sum().backward()
    assert values(x.grad) == [3., 3., 3.]
    x.grad = None
    (x * 3).sum().backward()
    assert values(x.grad) == [3., 3., 3.]


def test_non_leaf_grad_is_none_with_pytorchs_warning():
    x = T.tensor([1., 2., 3.], requires_grad=True)
    y = x * 2
    y.sum().backward()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert y.grad is None
    assert [(w.category, str(w.message)) for w in caught] == [(UserWarning, NON_LEAF_GRAD)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert values(x.grad) == [2., 2., 2.]  # leaves never warn
        z = x * 3
        z.retain_grad()
        assert z.grad is None  # nor do non-leaves that retain their grad


def test_retain_grad():
    x = T.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.retain_grad()
    assert y.retains_grad and not (x * 2).retains_grad
    (y * y).sum().backward()
    assert values(y.grad) == [4., 8.]
    assert values(x.grad) == [8., 16.]
    x.retain_grad()  # a no-op on a leaf
    assert not x.retains_grad
    with raises(RuntimeError, "can't retain_grad on Tensor that has requires_grad=False"):
        T.tensor([1.]).retain_grad()


# ---------------------------------------------------------------------------- hooks
def test_leaf_hooks_run_in_order_modify_the_grad_and_can_be_removed():
    calls = []
    a = T.tensor([1., 2.], requires_grad=True)
    h1 = a.register_hook(lambda g: calls.append(("h1", values(g))) or g * 2)
    a.register_hook(lambda g: calls.append(("h2", values(g))))
    (a * 3).sum().backward()
    assert calls == [("h1", [3., 3.]), ("h2", [6., 6.])]
    assert values(a.grad) == [6., 6.]
    h1.remove()
    calls.clear()
    a.grad = None
    (a * 3).sum().backward()
    assert calls == [("h2", [3., 3.])]
    assert values(a.grad) == [3., 3.]


def test_non_leaf_hooks_change_what_flows_on_and_what_retain_grad_keeps():
    calls = []
    b = T.tensor([1., 2.], requires_grad=True)
    y = b * 2
    y.retain_grad()
    y.register_hook(lambda g: calls.append(("y", values(g))) or g + 100)
    z = y * y
    z.register_hook(lambda g: calls.append(("z", values(g))))
    z.sum().backward()
    assert calls == [("z", [1., 1.]), ("y", [4., 8.])]
    assert values(y.grad) == [104., 108.]  # retain_grad sees the hooked gradient
    assert values(b.grad) == [208., 216.]


def test_hook_on_tensor_without_grad_raises():
    with raises(RuntimeError, "cannot register a hook on a tensor that doesn't require gradient"):
        T.tensor([1.]).register_hook(lambda g: g)


# ---------------------------------------------------------------------------- backward twice, retain_graph
@pytest.mark.parametrize("expr, allowed", BACKWARD_TWICE, ids=[e for e, _ in BACKWARD_TWICE])
def test_second_backward_fails_exactly_where_saved_tensors_were_freed(expr, allowed):
    x, y = leaves(T)
    out = eval(expr)
    out.sum().backward()
    if allowed:  # nodes that saved nothing (add, sum, views) can run again
        out.sum().backward()
        assert x.grad is not None
    else:
        with raises(RuntimeError, FREED):
            out.sum().backward()


def test_retain_graph_keeps_saved_tensors():
    x = T.tensor([1., 2.], requires_grad=True)
    out = (x * x).sum()
    out.backward(retain_graph=True)
    out.backward()
    assert values(x.grad) == [4., 8.]
    with raises(RuntimeError, FREED):
        out.backward()


def test_saved_tensors_of_a_custom_function_are_freed_too():
    class Square(T.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return 2 * a * g

    a = T.tensor([1., 2.], requires_grad=True)
    out = Square.apply(a)
    out.sum().backward()
    with raises(RuntimeError, FREED):
        out.grad_fn.saved_tensors


# ---------------------------------------------------------------------------- gradient= and root errors
def test_backward_with_gradient_weights():
    x = T.ones(2, 3, requires_grad=True)
    T.mm(x, T.ones(3, 4)).backward(T.tensor([[1., 2, 3, 4], [5, 6, 7, 8]]))
    assert values(x.grad) == [[10., 10., 10.], [26., 26., 26.]]


def test_root_gradient_is_cast_to_the_output_dtype():
    for dtype in (T.float64, T.int64, T.bool):
        x = T.tensor([1., 2.], requires_grad=True)
        (x * 2).backward(T.ones(2, dtype=dtype))
        assert x.grad.dtype == T.float32 and values(x.grad) == [2., 2.]


@pytest.mark.parametrize("call, exc, message", [
    (lambda x: (x * 2).backward(), RuntimeError, "grad can be implicitly created only for scalar outputs"),
    (lambda x: T.tensor([1.]).sum().backward(), RuntimeError,
     "element 0 of tensors does not require grad and does not have a grad_fn"),
    (lambda x: (x * 2).sum().backward(T.tensor([1., 2.])), RuntimeError,
     "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a shape of torch.Size([])."),
    (lambda x: (x * 2).backward(T.ones(3)), RuntimeError,
     "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a shape of torch.Size([2])."),
    (lambda x: T.autograd.backward([(x * 2).sum(), (x * 3).sum()], [None]), RuntimeError,
     "got 2 tensors and 1 gradients"),
    (lambda x: T.autograd.backward([T.tensor(1.), (x * 2).sum()], [None]), RuntimeError,
     "got 2 tensors and 1 gradients"),
    (lambda x: T.autograd.backward([(x * 2).sum(), T.tensor(1.)], [None, T.ones(3)]), RuntimeError,
     "Mismatch in shape: grad_output[1] has a shape of torch.Size([3]) and output[1] has a shape of torch.Size([])."),
    (lambda x: (x * 2).sum().backward(inputs=[]), RuntimeError, "`inputs` argument to `backward()` cannot be empty."),
    (lambda x: (x * 2).sum().backward(inputs=[T.tensor([1.])]), RuntimeError,
     "can't retain_grad on Tensor that has requires_grad=False"),
    (lambda x: T.tensor(1.).backward(inputs=[T.tensor([1.])]), RuntimeError,
     "element 0 of tensors does not require grad and does not have a grad_fn"),
])
def test_backward_misuse_errors(call, exc, message):
    x = T.tensor([1., 2.], requires_grad=True)
    with raises(exc, message):
        call(x)


# ---------------------------------------------------------------------------- autograd.grad
def test_grad_with_grad_outputs_leaves_dot_grad_alone():
    x = T.tensor([1., 2.], requires_grad=True)
    (g,) = T.autograd.grad(x * x, x, grad_outputs=T.tensor([1., 10.]))
    assert values(g) == [2., 40.]
    assert x.grad is None
    assert not g.requires_grad and g.grad_fn is None
    (g,) = T.autograd.grad((x * 2).sum(), x, grad_outputs=T.tensor(2.))
    assert values(g) == [4., 4.]


def test_grad_create_graph_gives_second_derivatives():
    x = T.tensor(3., requires_grad=True)
    (dy,) = T.autograd.grad(x ** 3, x, create_graph=True)
    assert dy.detach().item() == 27. and dy.grad_fn.name() == "MulBackward0"
    (d2y,) = T.autograd.grad(dy, x)
    assert d2y.item() == 18.
    x = T.tensor([1., 2.], requires_grad=True)
    out = (x ** 3).sum()
    (g,) = T.autograd.grad(out, x, create_graph=True)
    assert values(g) == [3., 12.] and g.requires_grad
    (h,) = T.autograd.grad(g.sum(), x)
    assert values(h) == [6., 12.]
    (again,) = T.autograd.grad(out, x)  # create_graph=True also retained the graph
    assert values(again) == [3., 12.] and again.grad_fn is None


def test_grad_allow_unused_and_materialize_grads():
    x = T.tensor([1., 2.], requires_grad=True)
    w = T.tensor([3., 4.], requires_grad=True)
    out = (x * x).sum()
    assert T.autograd.grad(out, w, retain_graph=True, allow_unused=True) == (None,)
    (z,) = T.autograd.grad(out, w, retain_graph=True, materialize_grads=True)
    assert values(z) == [0., 0.]
    gx, gw = T.autograd.grad(out, [x, w], allow_unused=True)
    assert values(gx) == [2., 4.] and gw is None


@pytest.mark.parametrize("call, exc, message", [
    (lambda x, w: T.autograd.grad((x * x).sum(), w), RuntimeError,
     "The differentiated Tensor at index 0 appears to not have been used in the graph. Set allow_unused=True if "
     "this is the desired behavior."),
    (lambda x, w: T.autograd.grad((x * x).sum(), w, allow_unused=False, materialize_grads=True), ValueError,
     "Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False."),
    (lambda x, w: T.autograd.grad((x * x).sum(), T.tensor([1.])), RuntimeError,
     "One of the differentiated Tensors does not require grad"),
    (lambda x, w: T.autograd.grad(T.tensor(1.), x), RuntimeError,
     "element 0 of tensors does not require grad and does not have a grad_fn"),
    (lambda x, w: T.autograd.grad(x * 2, x), RuntimeError, "grad can be implicitly created only for scalar outputs"),
    (lambda x, w: T.autograd.grad(x, x), RuntimeError, "grad can be implicitly created only for scalar outputs"),
    (lambda x, w: T.autograd.grad(x * 2, x, grad_outputs=T.ones(3)), RuntimeError,
     "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a shape of torch.Size([2])."),
    (lambda x, w: T.autograd.grad([x * 2, x * 3], x, grad_outputs=[T.ones(2)]), RuntimeError,
     "got 2 tensors and 1 gradients"),
    (lambda x, w: T.autograd.grad(x * 2, []), RuntimeError, "`inputs` argument to `grad()` cannot be empty."),
    (lambda x, w: T.autograd.grad(x * 2, x, grad_outputs=[1.0, 2.0]), TypeError,
     "gradients can be either Tensors or None, but got float"),
    (lambda x, w: T.autograd.grad((x > 1).sum(), x), RuntimeError,
     "element 0 of tensors does not require grad and does not have a grad_fn"),
])
def test_grad_misuse_errors(call, exc, message):
    x = T.tensor([1., 2.], requires_grad=True)
    w = T.tensor([3., 4.], requires_grad=True)
    with raises(exc, message):
        call(x, w)


# ---------------------------------------------------------------------------- backward(inputs=...)
def test_backward_inputs_on_leaves():
    x = T.tensor([1., 2.], requires_grad=True)
    w = T.tensor([3., 4.], requires_grad=True)
    (x * w).sum().backward(inputs=[x])
    assert values(x.grad) == [3., 4.] and w.grad is None
    (x * w).sum().backward(inputs=w)
    assert values(x.grad) == [3., 4.] and values(w.grad) == [1., 2.]


def test_backward_inputs_on_a_non_leaf_makes_it_retain_grad():
    x = T.tensor([1., 2.], requires_grad=True)
    y = x * 2
    z = (y * y).sum()
    z.backward(inputs=[y], retain_graph=True)
    assert values(y.grad) == [4., 8.] and x.grad is None
    assert y.retains_grad and not y.is_leaf
    z.backward()  # now an ordinary backward fills y.grad as well
    assert values(y.grad) == [8., 16.] and values(x.grad) == [8., 16.]
    y2 = x * 2
    y2.retain_grad()
    (y2 * y2).sum().backward(inputs=[x, y2])
    assert values(y2.grad) == [4., 8.]  # once, not twice
    assert values(x.grad) == [16., 32.]


# ---------------------------------------------------------------------------- grad mode
def test_no_grad_enable_grad_and_set_grad_enabled_as_contexts():
    x = T.tensor([1.], requires_grad=True)
    with T.no_grad():
        y = x * 2
        with T.enable_grad():
            z = x * 2
        assert not T.is_grad_enabled()
        w = x + 0
    assert not y.requires_grad and z.requires_grad and T.is_grad_enabled()
    assert not w.requires_grad and w.is_leaf and w.grad_fn is None
    T.set_grad_enabled(False)
    assert not T.is_grad_enabled() and not (x * 2).requires_grad
    T.set_grad_enabled(True)
    with T.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert T.is_grad_enabled()
    with pytest.raises(ValueError):
        with T.no_grad():
            raise ValueError("boom")
    assert T.is_grad_enabled()


def test_grad_modes_as_decorators():
    x = T.tensor([1.], requires_grad=True)

    @T.no_grad()
    def f(a):
        return a * 2, T.is_grad_enabled()

    @T.enable_grad()
    def g(a):
        return a * 2

    @T.set_grad_enabled(False)
    def h(a):
        return a * 2

    out, enabled = f(x)
    assert not out.requires_grad and not enabled and T.is_grad_enabled()
    with T.no_grad():
        assert g(x).requires_grad and not T.is_grad_enabled()
    assert not h(x).requires_grad and T.is_grad_enabled()


def test_no_grad_as_a_bare_decorator():
    @T.no_grad
    def f(a):
        return a * 2

    assert not f(T.tensor([1.], requires_grad=True)).requires_grad
    assert T.is_grad_enabled()


# ---------------------------------------------------------------------------- requires_grad and in-place rules
def test_requires_grad_flags():
    x = T.tensor([1., 2.], requires_grad=True)
    message = ("you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
               "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")
    with raises(RuntimeError, message):
        (x * 1).requires_grad_(False)
    with raises(RuntimeError, message):
        (x * 1).requires_grad = False
    assert (x * 1).requires_grad_(True).grad_fn.name() == "MulBackward0"
    with raises(RuntimeError, "only Tensors of floating point dtype can require gradients"):
        T.tensor([1, 2]).requires_grad_()
    x.requires_grad_(False)
    assert not x.requires_grad and x.is_leaf


def test_in_place_on_leaf_or_view_of_leaf_raises_but_not_under_no_grad():
    a = T.tensor([1., 2.], requires_grad=True)
    with raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place operation."):
        a.add_(1)
    with raises(RuntimeError, "a view of a leaf Variable that requires grad is being used in an in-place operation."):
        a[0].mul_(2)
    with raises(RuntimeError, "a view of a leaf Variable that requires grad is being used in an in-place operation."):
        a.view(2).add_(1)
    with T.no_grad():
        a.add_(1)
    assert values(a) == [2., 3.] and a._version == 1 and a.requires_grad and a.grad_fn is None


@pytest.mark.parametrize("make, op", [
    (lambda b: b.exp(), "Exp"), (lambda b: b.sigmoid(), "Sigmoid"), (lambda b: b.tanh(), "Tanh")])
def test_version_counter_error_names_the_op_that_saved_its_output(make, op):
    b = T.tensor([1., 2.], requires_grad=True)
    y = make(b)
    y.add_(1)
    with raises(RuntimeError, version_error("torch.FloatTensor [2]", op)):
        y.sum().backward()


def test_version_counter_error_for_a_modified_input_names_its_current_grad_fn():
    b = T.tensor([1., 2.], requires_grad=True)
    y = b.exp()
    z = y * 2
    y.add_(1)
    with raises(RuntimeError, version_error("torch.FloatTensor [2]", "Exp")):
        z.sum().backward()
    y = b * 1
    z = y * y
    y.add_(1)  # y is now the output of the add
    with raises(RuntimeError, version_error("torch.FloatTensor [2]", "Add")):
        z.sum().backward()
    x = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    y = x.exp()
    y[0].mul_(2)
    with raises(RuntimeError, version_error("torch.FloatTensor [2, 2]", "Exp")):
        y.sum().backward()


def test_version_counts_in_place_ops_and_is_shared_with_views():
    x = T.tensor([1., 2.], requires_grad=True)
    y = x * 1
    assert y._version == 0
    y.add_(1)
    assert y._version == 1
    y[0] = 5
    assert y._version == 2
    y.mul_(2).add_(1)
    assert y._version == 4
    v = y.view(2)
    v.add_(1)
    assert (y._version, v._version) == (5, 5)


def test_in_place_on_a_non_leaf_view_updates_the_base_gradient():
    x = T.tensor([1., 2., 3., 4.], requires_grad=True)
    y = x * 2
    y[0] = 0
    y[1:] *= 3
    assert values(y) == [0., 12., 18., 24.]
    assert y.grad_fn.name() == "torch::autograd::CopySlices" and y._version == 3
    y.sum().backward()
    assert values(x.grad) == [0., 6., 6., 6.]

    x = T.tensor([1., 2., 3.], requires_grad=True)
    y = x * 1
    w = T.tensor([5., 6.], requires_grad=True)
    y[1:] = w
    y.sum().backward()
    assert values(x.grad) == [1., 0., 0.] and values(w.grad) == [1., 1.]

    x = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    y = x * 1
    v = y[:, 1]
    v[1:].add_(10)
    assert values(y) == [[1., 2.], [3., 14.]]
    (y * y).sum().backward()
    assert values(x.grad) == [[2., 4.], [6., 28.]]

    x = T.tensor([1., 2., 3.], requires_grad=True)
    y = x.clone()
    y[0] = y[2] * 5
    y.sum().backward()
    assert values(x.grad) == [0., 1., 6.]


def test_views_taken_before_an_in_place_write_see_it_in_their_gradient():
    x = T.tensor([1., 2., 3.], requires_grad=True)
    y = x * 1
    z = y[1:]
    y.mul_(2)
    assert values(z) == [4., 6.] and z.grad_fn.name() == "AsStridedBackward0"
    (z * z).sum().backward()
    assert values(x.grad) == [0., 16., 24.]

    x = T.tensor([1., 2., 3.], requires_grad=True)
    y = x * 1
    v, a = y[1:], y[:2]
    v.mul_(2)
    assert values(a) == [1., 4.]
    assert (a.grad_fn.name(), v.grad_fn.name(), y.grad_fn.name()) == (
        "AsStridedBackward0", "AsStridedBackward0", "torch::autograd::CopySlices")
    (a * T.tensor([1., 10.])).sum().backward()
    assert values(x.grad) == [1., 20., 0.]

    y = T.zeros(3)
    v = y[1:]
    w = T.tensor(2., requires_grad=True)
    y[0] = w
    assert v.requires_grad and v.grad_fn.name() == "AsStridedBackward0"
    y[1] = w * 3
    assert values(v) == [6., 0.] and edges(v.grad_fn) == [("torch::autograd::CopySlices", 0)]
    (v * T.tensor([1., 10.])).sum().backward()
    assert w.grad.item() == 3.


def test_multiple_view_outputs_refuse_in_place():
    x = T.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    y = x * 1
    tail = (" is a view and is being modified inplace. This view is the output of a function that returns multiple "
            "views. Such functions do not allow the output views to be modified inplace. You should replace the "
            "inplace operation by an out-of-place one.")
    with raises(RuntimeError, "Output 0 of Unbind" + tail):
        y.unbind()[0].mul_(2)
    with raises(RuntimeError, "Output 1 of Split" + tail):
        y.chunk(2)[1].add_(1)
    with raises(RuntimeError, "Output 1 of SplitWithSizes" + tail):
        y.split([1, 1])[1].mul_(2)
    with raises(RuntimeError, "Output 0 of Select" + tail):
        y.unbind()[0][0].mul_(2)
    row = y.unbind()[0]
    with T.no_grad():
        row.mul_(2)
    assert values(y) == [[2., 4.], [3., 4.]]  # a real view: the base sees the write


# ---------------------------------------------------------------------------- detach and .data
def test_detach_shares_storage_and_version_counter():
    x = T.tensor([1., 2.], requires_grad=True)
    d = x.detach()
    assert not d.requires_grad and d.is_leaf and d.grad_fn is None
    d.add_(1)
    assert values(x) == [2., 3.] and x._version == 1 and d._version == 1
    y = x.exp()
    y.detach().zero_()
    assert y._version == 1
    with raises(RuntimeError, version_error("torch.FloatTensor [2]", "Exp")):
        y.sum().backward()


def test_data_is_outside_autograd_and_does_not_bump_the_version():
    x = T.tensor([1., 2.], requires_grad=True)
    y = x.exp()
    y.data.add_(1)
    assert y._version == 0
    y.sum().backward()  # no error: the change went unseen (and the gradient uses the new value)
    np.testing.assert_allclose(values(x.grad), np.exp([1., 2.]) + 1, rtol=1e-6)
    x.data.mul_(2)
    assert values(x) == [2., 4.] and x._version == 0
    x.data = T.tensor([7., 8.])
    assert values(x) == [7., 8.] and x.requires_grad and x._version == 0
    assert not x.data.requires_grad and x.data.is_leaf


# ---------------------------------------------------------------------------- custom Function
class MulAdd(T.autograd.Function):
    seen = []

    @staticmethod
    def forward(ctx, a, b, k):
        ctx.save_for_backward(a, b)
        ctx.k = k
        MulAdd.seen.append(("forward", ctx.needs_input_grad))
        return a * b + k

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        MulAdd.seen.append(("backward", ctx.needs_input_grad))
        return (g * b * ctx.k if ctx.needs_input_grad[0] else None,
                g * a if ctx.needs_input_grad[1] else None, None)


def test_custom_function_saves_tensors_and_knows_which_inputs_need_grad():
    MulAdd.seen.clear()
    a, b = T.tensor([1., 2.], requires_grad=True), T.tensor([3., 4.])
    out = MulAdd.apply(a, b, 2.0)
    assert values(out) == [5., 10.] and out.grad_fn.name() == "MulAddBackward"
    assert edges(out.grad_fn) == [(ACC, 0), (None, 0)]  # one edge per tensor argument
    out.sum().backward()
    assert values(a.grad) == [6., 8.] and b.grad is None
    assert MulAdd.seen == [("forward", (True, False, False)), ("backward", (True, False, False))]
    assert not MulAdd.apply(b, b, 1.0).requires_grad
    with T.no_grad():
        quiet = MulAdd.apply(a, b, 1.0)
    assert not quiet.requires_grad and quiet.grad_fn is None


def _function(name, forward, backward):
    return type(name, (T.autograd.Function,), {"forward": staticmethod(forward), "backward": staticmethod(backward)})


def test_custom_function_gradient_count_and_shape_errors():
    a = T.tensor([1., 2.], requires_grad=True)
    wrong = _function("Wrong", lambda ctx, p, q: p + q, lambda ctx, g: g)
    with raises(RuntimeError, "function WrongBackward returned an incorrect number of gradients (expected 2, got 1)"):
        wrong.apply(a, a).sum().backward()
    wrong3 = _function("Wrong3", lambda ctx, p: p * 2, lambda ctx, g: (g, g, g))
    with raises(RuntimeError, "function Wrong3Backward returned an incorrect number of gradients (expected 1, got 3)"):
        wrong3.apply(a).sum().backward()
    extra_none = _function("ExtraNone", lambda ctx, p: p * 2, lambda ctx, g: (g * 2, None))
    extra_none.apply(a).sum().backward()  # trailing Nones are allowed
    assert values(a.grad) == [2., 2.]
    bad_shape = _function("WrongShape", lambda ctx, p: p * 2, lambda ctx, g: T.ones(3))
    with raises(RuntimeError, "Function WrongShapeBackward returned an invalid gradient at index 0 - got [3] but "
                              "expected shape compatible with [2]"):
        bad_shape.apply(a).sum().backward()


def test_custom_function_mark_non_differentiable():
    received = []

    def forward(ctx, p):
        mask = p > 1.5
        ctx.mark_non_differentiable(mask)
        return p * 2, mask

    def backward(ctx, g_values, g_mask):
        received.append(values(g_mask))
        return g_values * 2

    a = T.tensor([1., 2.], requires_grad=True)
    v, m = _function("Split2", forward, backward).apply(a)
    assert v.requires_grad and not m.requires_grad and m.grad_fn is None and v.grad_fn.name() == "Split2Backward"
    v.sum().backward()
    assert values(a.grad) == [2., 2.] and received == [[False, False]]  # materialized zeros for the mask

    def float_forward(ctx, p):
        out = p * 3
        ctx.mark_non_differentiable(out)
        return out

    o = _function("NonDiff", float_forward, lambda ctx, g: g).apply(a)
    assert not o.requires_grad and o.grad_fn is None and o.is_leaf


def test_custom_function_returning_its_input_and_legacy_use():
    a = T.tensor([1., 2.], requires_grad=True)
    ident = _function("Ident", lambda ctx, p: p, lambda ctx, g: g * 10)
    o = ident.apply(a)
    assert o is not a and o.grad_fn.name() == "IdentBackward"
    o.sum().backward()
    assert values(a.grad) == [10., 10.]
    with pytest.warns(DeprecationWarning, match=r"should not be instantiated\. Methods on autograd functions are all "
                                                r"static"):
        instance = ident()
    with raises(RuntimeError, "Legacy autograd function with non-static forward method is deprecated. Please use "
                              "new-style autograd function with static forward method. (Example: "
                              "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"):
        instance(a)


# ---------------------------------------------------------------------------- graph structure
def test_next_functions_structure():
    x = T.tensor([1., 2.], requires_grad=True)
    w = T.tensor([3., 4.], requires_grad=True)
    y = x * w + 2
    assert y.grad_fn.name() == "AddBackward0" and edges(y.grad_fn) == [("MulBackward0", 0), (None, 0)]
    mul = y.grad_fn.next_functions[0][0]
    assert edges(mul) == [(ACC, 0), (ACC, 0)]
    acc = mul.next_functions[0][0]
    assert acc.variable is x and acc.next_functions == () and x.grad_fn is None
    assert (x * 3).grad_fn.next_functions[0][0] is acc  # one AccumulateGrad per leaf
    assert type(y.grad_fn.next_functions) is tuple and type(y.grad_fn.next_functions[0]) is tuple
    assert isinstance(y.grad_fn, T.autograd.graph.Node)
    const = T.tensor([1., 1.])
    for expr, expected in [
            ("x * 3", [(ACC, 0), (None, 0)]), ("3 * x", [(ACC, 0), (None, 0)]), ("x + 1", [(ACC, 0), (None, 0)]),
            ("x - 1", [(ACC, 0), (None, 0)]), ("1 - x", [(ACC, 0)]), ("x / 2", [(ACC, 0), (None, 0)]),
            ("2 / x", [("ReciprocalBackward0", 0), (None, 0)]), ("x ** 2", [(ACC, 0)]), ("2 ** x", [(ACC, 0)]),
            ("x * const", [(ACC, 0), (None, 0)]), ("const * x", [(None, 0), (ACC, 0)]),
            ("T.stack([x, w, x])", [(ACC, 0)] * 3), ("T.cat([x, const])", [(ACC, 0), (None, 0)]),
            ("(x.exp() * 2).sum().grad_fn.next_functions[0][0].next_functions[0][0]", None)]:
        out = eval(expr)
        if expected is None:
            assert out.name() == "ExpBackward0"
        else:
            assert edges(out.grad_fn) == expected, expr
    a, b = (x * 1).unbind()
    assert a.grad_fn is b.grad_fn and a.grad_fn.name() == "UnbindBackward0"
    assert (a.output_nr, b.output_nr) == (0, 1) and edges(a.grad_fn) == [("MulBackward0", 0)]
    assert [x.is_leaf, (x * 2).is_leaf, T.tensor([1.]).is_leaf, (T.tensor([1.]) * 2).is_leaf] == [True, False, True, True]


@pytest.mark.parametrize("expr, name", GRAD_FN_NAMES, ids=[e for e, _ in GRAD_FN_NAMES])
def test_grad_fn_names(expr, name):
    x, y = leaves(T)
    out = eval(expr)
    assert (out.grad_fn.name() if out.grad_fn is not None else None) == name


@pytest.mark.parametrize("expr, text", REPRS, ids=[e for e, _ in REPRS])
def test_repr(expr, text):
    assert repr(eval(expr)) == text


# ---------------------------------------------------------------------------- the engine
def test_deep_chain_backward_does_not_recurse():
    x = T.tensor([1.0], requires_grad=True)
    y = x
    for i in range(20000):
        y = y * 1.0001 if i % 2 else y + 0.001
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(200, len(__import__("inspect").stack()) + 150))
    try:
        y.sum().backward()
        z = x
        for _ in range(20000):
            z = z.tanh()
        (g,) = T.autograd.grad(z.sum(), x, create_graph=True)
        del y, z, g
    finally:
        sys.setrecursionlimit(limit)
    # 10000 multiplications by float32(1.0001), as float32 arithmetic does them
    np.testing.assert_allclose(x.grad.item(), float(np.float32(1.0001)) ** 10000, rtol=1e-4)


@pytest.mark.parametrize("expr, expected", ENGINE_ORDER, ids=[e for e, _ in ENGINE_ORDER])
def test_step_listener_sees_events_in_engine_order(expr, expected):
    x = T.tensor([1., 2.], requires_grad=True)
    w = T.tensor([3., 4.], requires_grad=True)
    out = eval(expr)
    events = []

    def listen(event):
        kind = event["event"]
        if kind == "node":
            events.append(event["name"])
        elif kind == "accumulate":
            events.append(("acc", "x" if event["variable"] == id(x) else "w"))
        elif kind in ("begin", "end"):
            events.append(kind)

    old = engine.set_listener(listen)
    try:
        out.backward()
    finally:
        engine.set_listener(old)
    assert events == ["begin"] + expected + ["end"]
