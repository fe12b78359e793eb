"""Forward mode through torch.nn.functional and custom autograd.Functions.

The nn primitives' JVPs are checked against finite differences and against their VJPs by
``gradcheck(check_forward_ad=True)`` in float64; the tangents PyTorch prints are compared by the
``fwd_nn_*`` golden snippets. Values written here were printed by torch 2.13.0.
"""
import numpy as np
import pytest

import autograd_py as torch
import autograd_py.autograd.forward_ad as fwAD
import autograd_py.nn.functional as F
from autograd_py.autograd import gradcheck
from autograd_py.nn import _adaptive_pool_ops, _conv_ops, _embedding, _pool_ops

D = torch.float64


def _rand(*shape, low=None):
    gen = np.random.default_rng(sum(shape) + len(shape))
    data = gen.uniform(0.1, 0.9, shape) if low == "prob" else gen.standard_normal(shape)
    return torch.tensor(data, dtype=D, requires_grad=True)


POS_WEIGHT = torch.tensor([0.5, 2.0, 1.5], dtype=D)
CLASS_WEIGHT = torch.tensor([1.0, 2.0, 3.0], dtype=D)
LABELS = torch.tensor([2, 0, 1, 1])

NN_CASES = {
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.2), lambda: (_rand(3, 4),)),
    "elu": (F.elu, lambda: (_rand(3, 4),)),
    "gelu": (F.gelu, lambda: (_rand(3, 4),)),
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"), lambda: (_rand(3, 4),)),
    "silu": (F.silu, lambda: (_rand(3, 4),)),
    "softplus": (lambda x: F.softplus(x, beta=2.0, threshold=1.0), lambda: (_rand(3, 4),)),
    "pad": (lambda x: F.pad(x, (1, 2, -1, 0), value=3.0), lambda: (_rand(3, 4),)),
    "conv2d": (lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1), lambda: (_rand(2, 3, 5, 5), _rand(4, 3, 3, 3),
                                                                               _rand(4))),
    "conv2d_groups": (lambda x, w: F.conv2d(x, w, groups=3, dilation=2), lambda: (_rand(1, 3, 6, 6), _rand(3, 1, 2, 2))),
    "conv1d": (lambda x, w: F.conv1d(x, w, padding="same"), lambda: (_rand(2, 2, 7), _rand(3, 2, 3))),
    "max_pool2d": (lambda x: F.max_pool2d(x, 3, stride=2, padding=1), lambda: (_rand(2, 2, 5, 5),)),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False),
                   lambda: (_rand(2, 2, 5, 5),)),
    "adaptive_avg_pool2d": (lambda x: F.adaptive_avg_pool2d(x, (2, 3)), lambda: (_rand(2, 2, 5, 5),)),
    "max_pool1d": (lambda x: F.max_pool1d(x, 2), lambda: (_rand(2, 7),)),
    "embedding": (lambda w: F.embedding(torch.tensor([[0, 2], [1, 2]]), w), lambda: (_rand(3, 2),)),
    "mse_loss": (lambda x, y: F.mse_loss(x, y, reduction="sum"), lambda: (_rand(3, 4), _rand(3, 4))),
    "smooth_l1_loss": (lambda x, y: F.smooth_l1_loss(x, y, beta=0.5), lambda: (_rand(3, 4), _rand(3, 4))),
    "nll_loss": (lambda x: F.nll_loss(x, LABELS, weight=CLASS_WEIGHT), lambda: (_rand(4, 3),)),
    "nll_loss_none": (lambda x: F.nll_loss(x, LABELS, reduction="none"), lambda: (_rand(4, 3),)),
    "nll_loss2d": (lambda x: F.nll_loss(x, torch.tensor([[[0, 2], [1, 1]]])), lambda: (_rand(1, 3, 2, 2),)),
    "binary_cross_entropy": (lambda x, y: F.binary_cross_entropy(x, y, weight=CLASS_WEIGHT),
                             lambda: (_rand(2, 3, low="prob"), _rand(2, 3, low="prob"))),
    "bce_with_logits": (lambda x, y: F.binary_cross_entropy_with_logits(x, y, pos_weight=POS_WEIGHT, reduction="sum"),
                        lambda: (_rand(2, 3), _rand(2, 3, low="prob"))),
}


@pytest.mark.parametrize("name", sorted(NN_CASES))
def test_nn_op_forward_ad_gradcheck(name):
    fn, make = NN_CASES[name]
    assert gradcheck(fn, make(), check_forward_ad=True)


def _conv_params():
    p = _conv_ops._Params()
    p.stride, p.padding, p.dilation, p.groups, p.output_padding = (2, 1), (1, 1), (1, 2), 1, (0, 0)
    return p


def _avg_params(x):
    return F.avg_pool2d(x.detach().requires_grad_(), 3, 2, 1).grad_fn


BACKWARD_CASES = {
    # The backward primitives are differentiated again for forward-over-reverse (Hessian-vector
    # products): their JVPs are checked the same way.
    "convolution_backward": (lambda g, x, w: _conv_ops.convolution_backward(g, x, w, _conv_params(), (True,) * 3),
                             lambda: (_rand(2, 4, 3, 5), _rand(2, 3, 5, 5), _rand(4, 3, 3, 2))),
    "convolution_backward_masked": (
        lambda g, x, w: _conv_ops.convolution_backward(g, x, w, _conv_params(), (False, True, True)),
        lambda: (_rand(2, 4, 3, 5), _rand(2, 3, 5, 5), _rand(4, 3, 3, 2))),
    "max_pool2d_backward": (
        lambda g, x: _pool_ops.max_pool2d_with_indices_backward(g, x, F.max_pool2d(x.detach(), 2,
                                                                                   return_indices=True)[1]),
        lambda: (_rand(1, 2, 2, 2), _rand(1, 2, 4, 4))),
    "avg_pool2d_backward": (lambda g, x: _pool_ops.avg_pool2d_backward(g, x, _avg_params(x)),
                            lambda: (_rand(1, 2, 2, 2), _rand(1, 2, 4, 4))),
    "adaptive_avg_pool2d_backward": (_adaptive_pool_ops.adaptive_avg_pool2d_backward,
                                     lambda: (_rand(1, 2, 3, 2), _rand(1, 2, 4, 4))),
    "embedding_dense_backward": (lambda g: _embedding.embedding_dense_backward(g, np.array([[0, 3], [1, 1]]), 4, 3),
                                 lambda: (_rand(2, 2, 3),)),
}


@pytest.mark.parametrize("name", sorted(BACKWARD_CASES))
def test_nn_backward_primitive_forward_ad_gradcheck(name):
    fn, make = BACKWARD_CASES[name]
    assert gradcheck(fn, make(), check_forward_ad=True)


def _tangent(t):
    return fwAD.unpack_dual(t).tangent


def test_mlp_tangent_along_parameters_is_the_linearised_model():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.2, -0.3]])
    first = model[0]
    w, b = first.weight.detach().clone(), first.bias.detach().clone()
    w_t, b_t = torch.ones(4, 3), torch.full((4,), 0.5)
    with fwAD.dual_level():
        del first.weight, first.bias
        first.weight, first.bias = fwAD.make_dual(w, w_t), fwAD.make_dual(b, b_t)
        out = model(x)
        h = x @ w.T + b
        expected = ((x @ w_t.T + b_t) * (1 - torch.tanh(h) ** 2)) @ model[2].weight.detach().T
        assert torch.allclose(_tangent(out).detach(), expected, atol=1e-6)


def test_cnn_tangent_matches_torch():
    torch.manual_seed(0)
    cnn = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                              torch.nn.Flatten(), torch.nn.Linear(8, 3))
    img = torch.arange(16.0).reshape(1, 1, 4, 4).sin()
    with fwAD.dual_level():
        out = cnn(fwAD.make_dual(img, torch.ones(1, 1, 4, 4)))
        tangent = _tangent(out).detach()
    # printed by torch 2.13.0 for the same seed and code
    assert np.allclose(tangent.numpy(), [[0.12335961, 0.29836810, 0.06595097]], atol=1e-6)


class MulScale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y, z):
        ctx.save_for_forward(x, y)
        ctx.z = z
        return x * y * z

    @staticmethod
    def jvp(ctx, x_t, y_t, z_t):
        ctx.seen = (x_t, y_t, z_t)
        x, y = ctx.saved_tensors
        return ctx.z * (y * x_t + x * y_t)


def test_function_jvp_gets_zeros_for_tensors_without_tangent_and_none_for_numbers():
    x, y = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])
    with fwAD.dual_level():
        out = MulScale.apply(fwAD.make_dual(x, torch.tensor([1.0, 0.5])), y, 4)
        assert _tangent(out).tolist() == [12.0, 8.0]
        assert out.grad_fn is None  # nothing requires grad: forward mode alone records no node
    with fwAD.dual_level():
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        out = MulScale.apply(fwAD.make_dual(a, torch.tensor([1.0, 0.5])), y, 4)
        x_t, y_t, z_t = out.grad_fn.seen
        assert y_t.tolist() == [0.0, 0.0] and z_t is None
    assert _tangent(MulScale.apply(x, y, 2)) is None  # outside a level: jvp is not called


def test_function_without_jvp_raises_pytorch_error():
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    with fwAD.dual_level():
        with pytest.raises(NotImplementedError, match="^You must implement the jvp function for custom "
                                                      "autograd.Function to use it with forward mode AD.$"):
            Double.apply(fwAD.make_dual(torch.ones(2), torch.ones(2)))


def test_function_forward_runs_with_forward_mode_off():
    seen = []

    class Probe(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            seen.append((_tangent(x), _tangent(y)))
            return y

        @staticmethod
        def jvp(ctx, t):
            return t * 2

    with fwAD.dual_level():
        out = Probe.apply(fwAD.make_dual(torch.ones(2), torch.ones(2)))
        assert _tangent(out).tolist() == [2.0, 2.0]
    assert seen == [(None, None)]


def test_function_vjp_alone_is_its_backward():
    class Sq(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def vjp(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = torch.tensor([3.0], requires_grad=True)
    Sq.apply(x).sum().backward()
    assert x.grad.tolist() == [6.0]


def test_function_vmap_attributes_are_kept():
    class Gen(torch.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

    assert Gen.generate_vmap_rule is True and torch.autograd.Function.generate_vmap_rule is False
    with pytest.raises(NotImplementedError, match="override the vmap staticmethod or set generate_vmap_rule=True"):
        torch.autograd.Function.vmap(None, (0,), torch.ones(1))
