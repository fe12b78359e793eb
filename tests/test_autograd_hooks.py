"""Edge cases of saved-tensor hooks, Node hooks, multi-grad hooks and ctx.mark_dirty (the goldens
hooks_* compare the common paths with PyTorch)."""
import gc
import weakref

import numpy as np
import pytest

import autograd_py as T
from autograd_py.playground import graph as graph_view
from autograd_py import saved_tensor
from autograd_py.autograd import Function
from autograd_py.autograd.graph import (disable_saved_tensors_hooks, register_multi_grad_hook,
                                        saved_tensors_hooks)


def leaf(*values):
    return T.tensor(list(values), requires_grad=True)


def test_without_hooks_nothing_is_packed_and_the_original_is_kept():
    a = leaf(1.0, 2.0)
    y = a * a
    raw = y.grad_fn._raw_saved_self
    assert raw.hooks is None and raw.unpack_hook is None
    assert y.grad_fn._saved_self is a
    assert saved_tensor.default_hooks == []


def test_undeclared_names_raise_and_unneeded_ones_are_none():
    a = leaf(1.0, 2.0)
    y = a * T.ones(2)
    assert y.grad_fn._saved_self is None
    assert y.grad_fn._raw_saved_self.unpack() is None
    with pytest.raises(AttributeError):
        y.grad_fn._saved_exponent
    with pytest.raises(AttributeError):
        (a ** 2).grad_fn._raw_saved_exponent


def test_hooks_pop_even_when_the_body_raises():
    with pytest.raises(ValueError):
        with saved_tensors_hooks(lambda x: x, lambda x: x):
            raise ValueError("boom")
    assert saved_tensor.default_hooks == []
    with pytest.raises(ValueError):
        with disable_saved_tensors_hooks("off"):
            raise ValueError("boom")
    assert saved_tensor.disabled_message[0] is None


def test_inputs_are_packed_in_name_order_then_outputs():
    seen = []
    a, b = leaf(1.0, 2.0), leaf(3.0, 4.0)
    with saved_tensors_hooks(lambda x: seen.append(x) or x, lambda x: x):
        T.pow(a, b)
    assert [t is b for t in seen[:2]] == [True, False]  # exponent before self
    assert seen[2].grad_fn is not None and seen[2].grad_fn.name() == "PowBackward1"


def test_unpacked_leaf_routes_higher_order_gradients_to_the_original():
    a = leaf(1.0, 2.0)
    with saved_tensors_hooks(lambda x: x.detach().clone(), lambda x: x):
        y = a * a
    s = y.grad_fn._saved_self
    assert s is not a and s.is_leaf and s.requires_grad
    (s * s).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [2.0, 4.0])


def test_packed_objects_are_released_after_backward():
    class Box:
        def __init__(self, t):
            self.t = t

    boxes = []
    a = leaf(1.0, 2.0)
    with saved_tensors_hooks(lambda x: boxes.append(weakref.ref(Box(x))) or boxes[-1]() or Box(x),
                             lambda box: box.t):
        y = a.exp()
    alive = [r for r in boxes]
    y.sum().backward()
    gc.collect()
    assert all(r() is None for r in alive)
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.grad_fn._saved_result


def test_graph_view_describes_a_hooked_node():
    a = leaf(1.0, 2.0)
    with saved_tensors_hooks(lambda x: ("packed", x), lambda p: p[1]):
        y = a * a
    entries = graph_view.describe_node(y.grad_fn)["saved"]
    assert [(e["name"], e["shape"]) for e in entries] == [("other", [2]), ("self", [2])]


def test_node_hook_handles_work_as_context_managers_and_remove_once():
    a = leaf(1.0, 2.0)
    b = a * 2
    with b.grad_fn.register_prehook(lambda go: (go[0] * 5,)):
        b.sum().backward(retain_graph=True)
    np.testing.assert_allclose(a.grad.numpy(), [10.0, 10.0])
    a.grad = None
    b.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [2.0, 2.0])


def test_a_hook_removing_itself_during_backward_still_runs_the_others():
    a = leaf(1.0)
    b = a * 3
    calls = []
    handles = []
    handles.append(b.grad_fn.register_prehook(lambda go: calls.append("first") or handles[0].remove()))
    b.grad_fn.register_prehook(lambda go: calls.append("second"))
    b.sum().backward(retain_graph=True)
    b.sum().backward()
    assert calls == ["first", "second", "second"]


def test_node_prehooks_make_vectorized_jacobian_fall_back_with_the_same_result():
    x = leaf(1.0, 2.0, 3.0)

    def f(x):
        y = x * x
        y.grad_fn.register_prehook(lambda go: (go[0] * 2,))
        return y

    jac = T.autograd.functional.jacobian(f, x, vectorize=True)
    np.testing.assert_allclose(jac.numpy(), np.diag([4.0, 8.0, 12.0]))


def test_multi_grad_hook_counts_each_nested_backward_separately():
    a, b = leaf(1.0), leaf(2.0)
    seen = []

    def inner(grads):
        seen.append(("outer", [g is not None for g in grads]))

    register_multi_grad_hook((a, b), inner)
    c = leaf(5.0)
    inner_calls = []
    register_multi_grad_hook((c,), lambda grads: inner_calls.append(grads[0].item()))

    def start_nested(g):
        with T.enable_grad():  # hooks run in the pass's grad mode, off without create_graph
            (c * 3).sum().backward()

    hb = b.register_hook(start_nested)
    (a * b).sum().backward()
    hb.remove()
    assert seen == [("outer", [True, True])] and inner_calls == [3.0]


def test_mark_dirty_on_a_view_gives_the_base_copy_slices():
    class Double_(Function):
        @staticmethod
        def forward(ctx, x):
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    a = leaf(1.0, 2.0, 3.0)
    base = a * 1
    view = base[:2]
    out = Double_.apply(view)
    assert out is view and view._version == base._version == 2
    assert base.grad_fn.name() == "torch::autograd::CopySlices"
    base.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), [2.0, 2.0, 1.0])


def test_mark_dirty_refuses_a_view_when_there_are_two_outputs():
    class Two(Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x, x * 2

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 + 2 * g2

    base = leaf(1.0, 2.0) * 1
    with pytest.raises(RuntimeError, match="cannot return more than one Tensor"):
        Two.apply(base[:1])
    out, doubled = Two.apply(base)
    assert out is base and out.grad_fn is doubled.grad_fn and doubled._output_nr == 1


def test_node_classes_print_like_pytorch_and_next_functions_is_read_only():
    a = leaf(1.0)
    y = a * a
    assert repr(type(y.grad_fn)) == "<class 'MulBackward0'>"
    assert repr(type(y.grad_fn.next_functions[0][0])) == "<class 'AccumulateGrad'>"
    with pytest.raises(AttributeError, match="attribute 'next_functions' of 'MulBackward0' objects is not writable"):
        y.grad_fn.next_functions = ()
    assert y.grad_fn.metadata is y.grad_fn.metadata


def test_once_differentiable_result_refuses_a_second_differentiation():
    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @T.autograd.function.once_differentiable
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return 2 * x * grad

    x = leaf(1.0, 2.0)
    y = Square.apply(x)
    (g,) = T.autograd.grad((y * y).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "Error"
    with pytest.raises(RuntimeError, match="@once_differentiable"):
        g.sum().backward()


def _graph_nodes(outputs):
    seen, stack = set(), [o.grad_fn for o in outputs if o.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return seen


def test_every_declared_saved_name_of_every_op_table_node_resolves():
    from op_table import OPS
    rng = np.random.default_rng(0)
    checked = 0
    for row in OPS:
        shapes = row.shapes[0]
        tensors = [T.tensor(a, requires_grad=True) for a in row.make_inputs(rng, shapes)]
        out = row.op(T, *tensors)
        outs = [o for o in (out if isinstance(out, (tuple, list)) else [out]) if o.requires_grad]
        for node in _graph_nodes(outs):
            for name in (n for n in dir(node) if n.startswith("_saved_")):
                value = getattr(node, name)
                assert value is None or isinstance(value, (T.Tensor, bool, int, float, str, tuple)), (row.name, name)
                checked += 1
            for name in (n for n in dir(node) if n.startswith("_raw_saved_")):
                raw = getattr(node, name)
                assert raw.unpack() is None or isinstance(raw.unpack(), T.Tensor), (row.name, name)
    assert checked > 100


def test_a_views_hooks_stay_on_the_grad_fn_its_first_hook_found():
    # program 514:1408: PyTorch binds a tensor's hook dict to its grad_fn at the first hook. A view
    # regenerated since (its base written in place) or reshaped by an in-place view op keeps adding
    # hooks there; an in-place op on the tensor itself (or through its view) starts a new dict.
    seen = []
    x = T.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = x * 1
    v = b.mT
    v.register_hook(lambda g: seen.append("v1"))
    b.exp_()
    v.register_hook(lambda g: seen.append("v2") or g * 2)
    (v * 1).sum().backward()
    assert seen == [] and np.allclose(x.grad.numpy(), np.exp([[1.0, 2.0], [3.0, 4.0]]))
    x = T.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: seen.append(("h1", g.shape)))
    y.unsqueeze_(0)
    y.register_hook(lambda g: seen.append(("h2", g.shape)))
    y.sum().backward()
    assert seen == [("h1", (2,)), ("h2", (2,))]
    seen.clear()
    y = x * 2
    y.register_hook(lambda g: seen.append(("k1", g.tolist())))
    y[:1].mul_(5)
    y.register_hook(lambda g: seen.append(("k2", g.tolist())))
    (y * T.tensor([3.0, 4.0])).sum().backward()
    assert seen == [("k2", [3.0, 4.0]), ("k1", [15.0, 4.0])]
