"""Module backward hooks (full, pre, deprecated): when they fire, what they see, what they may replace."""
import warnings

import pytest

import autograd_py as torch
from autograd_py import nn


def shapes(grads):
    return [None if g is None else tuple(g.shape) for g in grads]


def linear(weight):
    lin = nn.Linear(len(weight[0]), len(weight))
    with torch.no_grad():
        lin.weight.copy_(torch.tensor(weight))
        lin.bias.zero_()
    return lin


def test_hooks_fire_last_layer_first_with_input_and_output_gradients():
    net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    calls = []
    for layer in net:
        layer.register_full_backward_hook(
            lambda m, gin, gout: calls.append((type(m).__name__, shapes(gin), shapes(gout))))
    x = torch.randn(2, 3, requires_grad=True)
    net(x).sum().backward()
    assert calls == [("Linear", [(2, 4)], [(2, 1)]), ("Tanh", [(2, 4)], [(2, 4)]),
                     ("Linear", [(2, 3)], [(2, 4)])]


def test_outputs_hang_off_backward_hook_function_nodes():
    lin = nn.Linear(2, 2)
    handle = lin.register_full_backward_hook(lambda m, gin, gout: None)
    out = lin(torch.ones(1, 2, requires_grad=True))
    assert repr(out.grad_fn).startswith("<torch.autograd.function.BackwardHookFunctionBackward object at 0x")
    inner = out.grad_fn.next_functions[0][0]
    assert inner.name() == "AddmmBackward0"
    assert any(n is not None and n.name() == "BackwardHookFunctionBackward" for n, _ in inner.next_functions)
    handle.remove()
    assert lin(torch.ones(1, 2, requires_grad=True)).grad_fn.name() == "AddmmBackward0"


def test_pre_hook_and_hook_replace_gradients():
    lin = linear([[1., 2.], [3., 4.]])
    seen = []
    lin.register_full_backward_pre_hook(lambda m, gout: (gout[0] * 10,))
    lin.register_full_backward_hook(lambda m, gin, gout: seen.append((gin[0].tolist(), gout[0].tolist()))
                                    or (gin[0] + 1,))
    x = torch.ones(1, 2, requires_grad=True)
    lin(x).sum().backward()
    assert seen == [([[40., 60.]], [[10., 10.]])]
    assert x.grad.tolist() == [[41., 61.]]
    assert lin.weight.grad.tolist() == [[10., 10.], [10., 10.]]


def test_non_tensor_and_no_grad_inputs():
    class Pair(nn.Module):
        def forward(self, a, b, scale):
            return a * b * scale, a + 1

    pair = Pair()
    seen = []
    pair.register_full_backward_hook(lambda m, gin, gout: seen.append((shapes(gin), shapes(gout))))
    a = torch.tensor([1., 2.], requires_grad=True)
    p, q = pair(a, torch.tensor([3., 4.]), 2.0)
    (p.sum() + q.sum()).backward()
    assert seen == [([(2,), (2,), None], [(2,), (2,)])]
    assert a.grad.tolist() == [7., 9.]


def test_no_input_requires_grad_fires_on_outputs_with_warning():
    lin = nn.Linear(2, 1)
    seen = []
    lin.register_full_backward_hook(lambda m, gin, gout: seen.append((gin, shapes(gout))))
    out = lin(torch.ones(3, 2)).sum()
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        out.backward()
    assert seen == [((None,), [(3, 1)])]
    assert [w.category for w in log] == [UserWarning]
    assert str(log[0].message).startswith("Full backward hook is firing when gradients are computed with respect "
                                          "to module outputs since no inputs require gradients.")
    assert log[0].filename == __file__  # pointed at the backward() call


def test_wrong_number_of_gradients_is_pytorch_error():
    lin = nn.Linear(2, 2)
    lin.register_full_backward_hook(lambda m, gin, gout: (gin[0], gin[0]))
    with pytest.raises(RuntimeError, match="^Backward hook returned an invalid number of grad_input, got 2, "
                                           "but expected 1$"):
        lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
    pre = nn.Linear(2, 2)
    pre.register_full_backward_pre_hook(lambda m, gout: (gout[0], gout[0]))
    with pytest.raises(RuntimeError, match="^Backward pre hook returned an invalid number of grad_output, got 2, "
                                           "but expected 1$"):
        pre(torch.ones(1, 2, requires_grad=True)).sum().backward()


def test_prepend_and_no_graph():
    lin = nn.Linear(2, 2)
    order = []
    lin.register_full_backward_hook(lambda m, gin, gout: order.append("first"))
    lin.register_full_backward_hook(lambda m, gin, gout: order.append("second"), prepend=True)
    lin(torch.ones(1, 2, requires_grad=True)).sum().backward()
    assert order == ["second", "first"]
    with torch.no_grad():
        assert lin(torch.ones(1, 2, requires_grad=True)).grad_fn is None


def test_full_and_deprecated_hooks_do_not_mix():
    lin = nn.Linear(2, 2)
    lin.register_full_backward_hook(lambda m, gin, gout: None)
    with pytest.raises(RuntimeError, match="^Cannot use both regular backward hooks and full backward hooks"):
        lin.register_backward_hook(lambda m, gin, gout: None)


def test_deprecated_hook_sees_last_node_gradients_and_warns():
    lin = nn.Linear(3, 2)
    seen = []
    lin.register_backward_hook(lambda m, gin, gout: seen.append((shapes(gin), shapes(gout))))
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        out = lin(torch.ones(4, 3, requires_grad=True))
    assert out.grad_fn.name() == "AddmmBackward0"
    out.sum().backward()
    assert seen == [([(2,), (4, 3), (3, 2)], [(4, 2)])]
    assert [w.category for w in log] == [FutureWarning]
    assert "forward contains multiple autograd Nodes" in str(log[0].message)
    assert log[0].filename == __file__
