"""Convolution and pooling beyond the op table: third-order gradients, the double-backward graph,
the input-gradient skip, modules and the vectorized Jacobian."""
import numpy as np
import pytest

import autograd_py as T
from autograd_py.autograd import gradcheck, gradgradcheck
from conv_refs import np_conv

F = T.nn.functional


def _double(*shape, seed=0):
    return T.tensor(np.random.default_rng(seed).uniform(-1, 1, shape), dtype=T.float64, requires_grad=True)


@pytest.mark.filterwarnings("ignore:Using padding='same' with even kernel lengths")
@pytest.mark.parametrize("kwargs", [dict(stride=2, padding=1), dict(dilation=2, groups=2), dict(padding="same")])
def test_conv_gradient_of_gradient_is_differentiable_again(kwargs):
    # grad of a conv is ConvolutionBackwardBackward0, whose backward is made of convolutions again:
    # gradgradcheck on a function that already returns a gradient checks the third order.
    x, w, b = _double(1, 2, 5, 4), _double(2, 2 // kwargs.get("groups", 1), 3, 2, seed=1), _double(2, seed=2)

    def grad_of_loss(x, w, b):
        y = F.conv2d(x, w, b, **kwargs)
        return T.autograd.grad((y * y).sum(), (x, w, b), create_graph=True)

    assert gradcheck(grad_of_loss, (x, w, b))
    assert gradgradcheck(grad_of_loss, (x, w, b))


def test_double_backward_graph_has_pytorchs_nodes():
    x, w = _double(1, 2, 5, 5), _double(3, 2, 3, 3, seed=1)
    gx, gw = T.autograd.grad(F.conv2d(x, w).pow(2).sum(), (x, w), create_graph=True)
    assert type(gx.grad_fn).__name__ == "ConvolutionBackwardBackward0"
    assert gx.grad_fn is gw.grad_fn
    assert (gx.grad_fn.next_functions[1][0].variable, gx.grad_fn.next_functions[2][0].variable) == (x, w)
    g, = T.autograd.grad(F.max_pool2d(x, 2).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "MaxPool2DWithIndicesBackwardBackward0"
    g, = T.autograd.grad(F.avg_pool2d(x, 2).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "AvgPool2DBackwardBackward0"
    g, = T.autograd.grad(F.adaptive_avg_pool2d(x, 2).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "AdaptiveAvgPool2DBackwardBackward0"


def test_adaptive_avg_pool2d_keeps_a_nan_or_inf_inside_its_windows():
    # Each output sums its own window and each window gets its output's gradient, as ATen's kernels:
    # averaging matrices multiplied the nan by the zeros outside its window and spread it everywhere.
    x = T.tensor([[[1.0, float("inf"), 2.0, 3.0, 4.0], [float("nan"), 1.0, 2.0, 3.0, 5.0],
                   [1.0, 2.0, 3.0, 4.0, 5.0]]], requires_grad=True)
    y = F.adaptive_avg_pool2d(x, (2, 3))
    np.testing.assert_allclose(y.detach().numpy(), [[[np.nan, np.inf, 3.75], [np.nan, 2.5, 4.25]]])
    y.backward(T.tensor([[[0.0, 1.0, float("nan")], [2.0, 3.0, 4.0]]]))
    np.testing.assert_allclose(x.grad.numpy(), [[[0.0, 1 / 6, 1 / 6, np.nan, np.nan], [0.5, 7 / 6, 2 / 3, np.nan, np.nan],
                                                 [0.5, 1.0, 0.5, 1.5, 1.0]]], rtol=1e-6)


def test_backward_skips_the_input_gradient_of_an_image():
    # The first layer's input needs no gradient: its edge is (None, 0) and backward only fills weight and bias.
    conv = T.nn.Conv2d(1, 2, 3)
    y = conv(T.ones(1, 1, 5, 5))
    assert y.grad_fn.next_functions[0] == (None, 0)
    y.sum().backward()
    np.testing.assert_allclose(conv.bias.grad.numpy(), [9.0, 9.0])
    np.testing.assert_allclose(conv.weight.grad.numpy(), np.full((2, 1, 3, 3), 9.0))


def test_conv_module_matches_functional_and_reference():
    T.manual_seed(0)
    conv = T.nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=1, dilation=(1, 2), groups=2)
    x = T.randn(2, 4, 7, 6)
    expected = np_conv(x.numpy().astype(np.float64), conv.weight.detach().numpy().astype(np.float64),
                       conv.bias.detach().numpy().astype(np.float64), (2, 1), 1, (1, 2), 2)
    np.testing.assert_allclose(conv(x).detach().numpy(), expected, rtol=1e-5, atol=1e-5)
    bound = 1 / np.sqrt(2 * 3 * 2)
    assert np.abs(conv.weight.detach().numpy()).max() <= bound
    assert np.abs(conv.bias.detach().numpy()).max() <= bound


def test_vectorized_jacobian_through_conv_and_pool_matches_row_by_row():
    x, w = _double(1, 2, 5, 5), _double(3, 2, 3, 3, seed=1)

    def f(x):
        return F.avg_pool2d(F.max_pool2d(F.conv2d(x, w, padding=1), 2, stride=1), 2)

    rows = T.autograd.functional.jacobian(f, x)
    batched = T.autograd.functional.jacobian(f, x, vectorize=True)
    np.testing.assert_allclose(batched.numpy(), rows.numpy())


def test_max_pool_gradient_sums_where_windows_overlap():
    x = T.tensor([[[[0., 0., 0.], [0., 9., 0.], [0., 0., 0.]]]], requires_grad=True)
    F.max_pool2d(x, 2, stride=1).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy()[0, 0], [[0, 0, 0], [0, 4, 0], [0, 0, 0]])


@pytest.mark.parametrize("stride, padding, dilation, groups, in_spatial", [
    ((1, 1), (0, 0), (1, 1), 1, (7, 6)), ((2, 3), (1, 2), (1, 2), 2, (9, 8)),
    ((2, 2), (1, 1), (1, 1), 1, (6, 6)),  # a ceil-mode pooling window that reaches past the padding
])
def test_both_input_gradient_kernels_agree(stride, padding, dilation, groups, in_spatial):
    # Small inputs run the transposed convolution as a convolution, large ones col2im; both must agree.
    from autograd_py.nn import _conv_numpy as K
    rng = np.random.default_rng(3)
    weight = rng.standard_normal((4, 4 // groups, 3, 2))
    out = tuple(-(-(n + 2 * p - d * (k - 1) - 1) // s) + 1
                for n, k, s, p, d in zip(in_spatial, (3, 2), stride, padding, dilation))
    grad = rng.standard_normal((2, 4) + out)
    args = (grad, weight, in_spatial, stride, padding, dilation, groups)
    np.testing.assert_allclose(K._col2im(*args), K._transposed_as_conv(*args), atol=1e-12)
