"""autograd_py.nn and autograd_py.optim against PyTorch 2.13.

Numbers marked "PyTorch 2.13" were recorded from real torch runs of the same code (float32);
the others are NumPy reference computations. torch itself is never imported here.
"""
import copy
import math
import warnings

import numpy as np
import pytest

import autograd_py as ag
from autograd_py import nn, optim
from autograd_py.autograd import gradcheck, gradgradcheck
from autograd_py.nn import functional as F

X = [[1.5, -0.5, 0.2], [0.1, 2.0, -1.0]]
T = [[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]]


def leaf(data=X, dtype=None):
    return ag.tensor(data, dtype=dtype, requires_grad=True)


def close(t, expected, rtol=2e-6, atol=2e-7):
    np.testing.assert_allclose(np.asarray(t.detach().numpy() if isinstance(t, ag.Tensor) else t, dtype=np.float64),
                               np.asarray(expected, dtype=np.float64).reshape(np.shape(t)), rtol=rtol, atol=atol)


def names(t):
    return [n.name() if n is not None else None for n, _ in t.grad_fn.next_functions]


# ---------------------------------------------------------------------------- activations
def _np_gelu(x):
    return np.array([0.5 * v * (1 + math.erf(v / math.sqrt(2))) for v in x.ravel()]).reshape(x.shape)


def _np_gelu_grad(x):
    cdf = np.array([0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x.ravel()]).reshape(x.shape)
    return cdf + x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


_sig = lambda x: 1 / (1 + np.exp(-x))  # noqa: E731
ACTIVATIONS = [
    ("relu", F.relu, lambda x: np.maximum(x, 0), lambda x: (x > 0) * 1.0, "ReluBackward0"),
    ("leaky_relu", lambda t: F.leaky_relu(t, 0.1), lambda x: np.where(x > 0, x, 0.1 * x),
     lambda x: np.where(x > 0, 1.0, 0.1), "LeakyReluBackward0"),
    ("elu", lambda t: F.elu(t, 0.7), lambda x: np.where(x > 0, x, 0.7 * np.expm1(x)),
     lambda x: np.where(x > 0, 1.0, 0.7 * np.exp(x)), "EluBackward0"),
    ("gelu", F.gelu, _np_gelu, _np_gelu_grad, "GeluBackward0"),
    ("silu", F.silu, lambda x: x * _sig(x), lambda x: _sig(x) * (1 + x * (1 - _sig(x))), "SiluBackward0"),
    ("softplus", lambda t: F.softplus(t, beta=2.0, threshold=3.0),
     lambda x: np.where(2 * x > 3, x, np.log1p(np.exp(2 * x)) / 2), lambda x: np.where(2 * x > 3, 1.0, _sig(2 * x)),
     "SoftplusBackward0"),
    ("sigmoid", F.sigmoid, _sig, lambda x: _sig(x) * (1 - _sig(x)), "SigmoidBackward0"),
    ("tanh", F.tanh, np.tanh, lambda x: 1 - np.tanh(x) ** 2, "TanhBackward0"),
]


@pytest.mark.parametrize("name, fn, ref, ref_grad, grad_fn", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
def test_activation_values_grads_and_grad_fn(name, fn, ref, ref_grad, grad_fn):
    data = np.array([[-2.0, -0.5, 0.0, 0.3], [1.0, 1.6, 2.5, -4.0]])
    x = leaf(data, ag.float64)
    y = fn(x)
    assert y.grad_fn.name() == grad_fn
    close(y, ref(data), rtol=1e-12, atol=1e-12)
    y.backward(ag.ones_like(y))
    close(x.grad, ref_grad(data), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("fn", [
    lambda t: F.leaky_relu(t, 0.2), lambda t: F.elu(t, 1.3), F.gelu, lambda t: F.gelu(t, approximate="tanh"),
    F.silu, lambda t: F.softplus(t, 1.5, 2.0), lambda t: F.pad(t, (1, -1, 0, 2), value=0.5),
    lambda t: F.log_softmax(t, 1), lambda t: F.linear(t, t[:2] * 0.5 + 1, t[0, :2] * 2),
], ids=["leaky", "elu", "gelu", "gelu_tanh", "silu", "softplus", "pad", "log_softmax", "linear"])
def test_primitives_pass_gradcheck_and_gradgradcheck(fn):
    x = ag.tensor([[0.3, -1.2, 0.7], [1.1, -0.4, 2.5], [-0.05, 0.45, -2.2]], dtype=ag.float64, requires_grad=True)
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


@pytest.mark.parametrize("loss", [
    lambda x, t: F.mse_loss(x, t), lambda x, t: F.mse_loss(x, t, reduction="none"),
    lambda x, t: F.smooth_l1_loss(x, t, beta=0.7), lambda x, t: F.binary_cross_entropy(ag.sigmoid(x), ag.sigmoid(t)),
    lambda x, t: F.binary_cross_entropy_with_logits(x, ag.sigmoid(t), pos_weight=ag.tensor([2.0, 0.5, 1.0],
                                                                                           dtype=ag.float64)),
    lambda x, t: F.cross_entropy(x, ag.tensor([2, 0, 1]), weight=ag.tensor([1.0, 2.0, 0.5], dtype=ag.float64)),
    lambda x, t: F.cross_entropy(x, ag.softmax(t, 1), label_smoothing=0.2),
], ids=["mse", "mse_none", "smooth_l1", "bce", "bce_logits", "ce_weight", "ce_probs"])
def test_losses_pass_gradcheck_in_both_arguments(loss):
    x = ag.tensor([[0.3, -1.2, 0.7], [1.1, -0.4, 2.5], [-0.05, 0.45, -2.2]], dtype=ag.float64, requires_grad=True)
    t = ag.tensor([[0.1, 0.2, -0.3], [1.5, 0.0, 2.0], [0.6, -0.7, 0.8]], dtype=ag.float64, requires_grad=True)
    assert gradcheck(loss, (x, t))
    assert gradgradcheck(loss, (x, t))


def test_softmax_without_dim_warns_and_uses_legacy_dim():
    x = ag.tensor([[1.0, 2.0], [3.0, 5.0]])
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax has been deprecated"):
        y = F.softmax(x)
    close(y.sum(1), [1.0, 1.0])
    with pytest.warns(UserWarning, match="Implicit dimension choice for log_softmax"):
        nn.LogSoftmax()(x)


def test_inplace_activations_rewrite_the_input():
    x = leaf()
    y = x * 1
    assert F.relu(y, inplace=True) is y and y.grad_fn.name() == "ReluBackward0"
    z = x * 1
    F.leaky_relu(z, 0.5, inplace=True)
    assert z.grad_fn.name() == "LeakyReluBackward1"
    z.sum().backward()
    close(x.grad, np.where(np.array(X) > 0, 1.0, 0.5))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place"):
        F.relu(leaf(), inplace=True)


# ---------------------------------------------------------------------------- losses (PyTorch 2.13 numbers)
CE = {"mean": (1.8619301, [0.3551471, 0.0480639, -0.4032111, -0.4376463, 0.4168905, 0.0207558]),
      "sum": (3.7238603, [0.7102942, 0.0961279, -0.8064222, -0.8752925, 0.8337811, 0.0415115]),
      "none": ([1.6420759, 2.0817845], [0.7102942, 0.0961279, -0.8064222, -0.8752925, 0.8337811, 0.0415115])}


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_matches_pytorch(reduction):
    x = leaf()
    loss = F.cross_entropy(x, ag.tensor([2, 0]), reduction=reduction)
    assert loss.grad_fn.name() == "NllLossBackward0" and names(loss) == ["LogSoftmaxBackward0"]
    loss.sum().backward()
    close(loss, CE[reduction][0])
    close(x.grad, CE[reduction][1])


@pytest.mark.parametrize("kwargs, target, value, grad, grad_fn", [
    (dict(weight=ag.tensor([0.2, 1.0, 3.0])), [2, 0], 1.6695577,
     [0.6659008, 0.0901199, -0.7560208, -0.0547058, 0.0521113, 0.0025945], "NllLossBackward0"),
    ({}, [2, -100], 1.6420759, [0.7102942, 0.0961279, -0.8064222, 0.0, 0.0, 0.0], "NllLossBackward0"),
    (dict(label_smoothing=0.1), [2, 0], 1.8385967,
     [0.3384804, 0.0313973, -0.3698778, -0.4043129, 0.4002239, 0.0040891], "AddBackward0"),
    ({}, [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]], 1.9069302,
     [0.2551471, -0.1019361, -0.1532111, -0.2376463, 0.3668905, -0.1292443], "DivBackward1"),
], ids=["weight", "ignore_index", "label_smoothing", "probabilities"])
def test_cross_entropy_options_match_pytorch(kwargs, target, value, grad, grad_fn):
    x = leaf()
    loss = F.cross_entropy(x, ag.tensor(target), **kwargs)
    assert loss.grad_fn.name() == grad_fn
    loss.backward()
    close(loss, value)
    close(x.grad, grad)


def test_cross_entropy_with_probabilities_divides_as_pytorchs_div_scalar():
    # PyTorch 2.13: mean divides by numel / n_classes in int64, so DivBackward1 (div.Scalar, the
    # node every formula's division by a number records) shows _saved_other 2, an int; 8 for a
    # (2, 3, 4) input over 3 classes.
    from autograd_py.ops.pointwise import DivBackward1
    x = leaf()
    loss = F.cross_entropy(x, ag.tensor([[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]))
    assert type(loss.grad_fn) is DivBackward1
    assert repr(loss.grad_fn._saved_other) == "2"
    x4 = ag.zeros(2, 3, 4, requires_grad=True)
    assert repr(F.cross_entropy(x4, ag.ones(2, 3, 4) / 3).grad_fn._saved_other) == "8"


def test_cross_entropy_with_probabilities_of_an_empty_batch_fills_nan_as_pytorch():
    # PyTorch 2.13: -(input * target).sum().fill_(nan) for the mean of nothing, no division.
    x = ag.zeros(0, 3, requires_grad=True)
    loss = F.cross_entropy(x, ag.zeros(0, 3))
    assert math.isnan(loss.item())
    assert (loss.grad_fn.name(), names(loss)) == ("NegBackward0", ["FillBackward2"])
    loss.backward()
    assert x.grad.shape == (0, 3)


def test_nll_loss_spatial_shapes_follow_pytorch():
    rng = np.random.default_rng(0)
    logp = np.log(rng.dirichlet(np.ones(4), (2, 3, 5)).transpose(0, 3, 1, 2))  # (N=2, C=4, 3, 5)
    target = rng.integers(0, 4, (2, 3, 5))
    picked = np.take_along_axis(logp, target[:, None], 1)[:, 0]
    x = leaf(logp, ag.float64)
    four_d = F.nll_loss(x, ag.tensor(target))
    assert four_d.grad_fn.name() == "NllLoss2DBackward0"
    close(four_d, -picked.mean(), rtol=1e-12)
    none_3d = F.nll_loss(leaf(logp[..., 0], ag.float64), ag.tensor(target[..., 0]), reduction="none")
    assert none_3d.grad_fn.name() == "ViewBackward0" and none_3d.shape == (2, 3)
    close(none_3d, -picked[..., 0], rtol=1e-12)
    single = F.cross_entropy(leaf([0.5, 1.5, -1.0]), ag.tensor(1))
    close(single, -np.log(np.exp(1.5) / np.exp([0.5, 1.5, -1.0]).sum()))


def test_nll_loss_all_ignored_mean_is_nan_with_zero_grad():
    x = leaf()
    loss = F.nll_loss(x, ag.tensor([2, 2]), ignore_index=2)
    loss.backward()
    assert math.isnan(loss.detach().item())
    close(x.grad, np.zeros((2, 3)))


REGRESSION = {  # PyTorch 2.13: (loss, grad wrt input) for input X, target T
    "mse": {"mean": (1.1, [0.1666667, -0.1666667, 0.4, -0.1333333, 0.5, -0.5]),
            "sum": (6.5999999, [1.0, -1.0, 2.4000001, -0.8, 3.0, -3.0]),
            "none": ([0.25, 0.25, 1.4400001, 0.16, 2.25, 2.25], [1.0, -1.0, 2.4000001, -0.8, 3.0, -3.0])},
    "l1": {"mean": (0.9333333, [0.1666667, -0.1666667, 0.1666667, -0.1666667, 0.1666667, -0.1666667]),
           "sum": (5.6, [1.0, -1.0, 1.0, -1.0, 1.0, -1.0]),
           "none": ([0.5, 0.5, 1.2, 0.4, 1.5, 1.5], [1.0, -1.0, 1.0, -1.0, 1.0, -1.0])},
    "smooth_l1": {"mean": (0.685, [0.1666667, -0.1666667, 0.1666667, -0.1333333, 0.1666667, -0.1666667]),
                  "sum": (4.1100001, [1.0, -1.0, 1.0, -0.8, 1.0, -1.0]),
                  "none": ([0.25, 0.25, 0.95, 0.16, 1.25, 1.25], [1.0, -1.0, 1.0, -0.8, 1.0, -1.0])},
}
GRAD_FN = {"mse": ("MseLossBackward0",) * 3, "l1": ("MeanBackward0", "SumBackward0", "AbsBackward0"),
           "smooth_l1": ("SmoothL1LossBackward0",) * 3}


@pytest.mark.parametrize("kind", ["mse", "l1", "smooth_l1"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_regression_losses_match_pytorch(kind, reduction):
    x = leaf()
    fn = {"mse": F.mse_loss, "l1": F.l1_loss, "smooth_l1": lambda *a, **k: F.smooth_l1_loss(*a, beta=0.5, **k)}[kind]
    loss = fn(x, ag.tensor(T), reduction=reduction)
    assert loss.grad_fn.name() == GRAD_FN[kind][["mean", "sum", "none"].index(reduction)]
    loss.sum().backward()
    close(loss, REGRESSION[kind][reduction][0])
    close(x.grad, REGRESSION[kind][reduction][1])


def test_mse_loss_target_gradient_and_broadcast_warning():
    x, t = leaf(), leaf(T)
    F.mse_loss(x, t).backward()
    close(t.grad, -x.grad.numpy())
    with pytest.warns(UserWarning, match=r"Using a target size \(torch.Size\(\[3\]\)\) that is different to the "
                                         r"input size \(torch.Size\(\[2, 3\]\)\)"):
        loss = F.mse_loss(leaf(), ag.tensor([1.0, 0.0, -1.0]))
    close(loss, np.mean((np.array(X) - [1.0, 0.0, -1.0]) ** 2))


PROBS = [[0.9, 0.2, 0.5], [0.0, 1.0, 0.7]]
BINARY = [[1.0, 0.0, 1.0], [1.0, 1.0, 0.0]]


@pytest.mark.parametrize("reduction, value, grad", [
    ("sum", 102.2256241, [-1.1111112, 1.2499999, -2.0, -999999995904.0, 0.0, 3.3333333]),
    ("none", [0.1053605, 0.2231436, 0.6931472, 100.0, 0.0, 1.2039728],
     [-1.1111112, 1.2499999, -2.0, -999999995904.0, 0.0, 3.3333333]),
])
def test_binary_cross_entropy_clamps_logs_like_pytorch(reduction, value, grad):
    p = leaf(PROBS)
    loss = F.binary_cross_entropy(p, ag.tensor(BINARY), reduction=reduction)
    assert loss.grad_fn.name() == "BinaryCrossEntropyBackward0"
    loss.sum().backward()
    close(loss, value)
    close(p.grad, grad)


def test_binary_cross_entropy_weight_and_logits_match_pytorch():
    p = leaf([[0.9, 0.2, 0.5], [0.3, 0.6, 0.7]])
    loss = F.binary_cross_entropy(p, ag.tensor(BINARY), weight=ag.tensor([1.0, 2.0, 0.5]))
    loss.backward()
    close(loss, 0.6209719)
    close(p.grad, [-0.1851852, 0.4166666, -0.1666667, -0.5555555, -0.5555555, 0.2777778])
    x = leaf()
    loss = F.binary_cross_entropy_with_logits(x, ag.tensor(BINARY))
    assert loss.grad_fn.name() == "BinaryCrossEntropyWithLogitsBackward0"
    loss.backward()
    close(loss, 0.3930359)
    close(x.grad, [-0.0304043, 0.0629234, -0.0750277, -0.0791701, -0.0198672, 0.0448236], rtol=1e-5)
    x = leaf()
    loss = nn.BCEWithLogitsLoss(weight=ag.tensor([1.0, 2.0, 0.5]), pos_weight=ag.tensor([3.0, 1.0, 0.5]))(
        x, ag.tensor(BINARY))
    loss.backward()
    close(loss, 0.6742676)
    close(x.grad, [-0.0912128, 0.1258469, -0.0187569, -0.2375104, -0.0397343, 0.0224118], rtol=1e-5)


LOSS_ERRORS = [  # all messages as PyTorch 2.13 raises them
    (lambda: F.cross_entropy(ag.ones(2, 3), ag.tensor([0.0, 1.0])), RuntimeError,
     "expected target dtype to be Long or Byte, but got Float"),
    (lambda: F.cross_entropy(ag.ones(2, 3), ag.tensor([0, 1, 2])), ValueError,
     r"Expected input batch_size \(2\) to match target batch_size \(3\)."),
    (lambda: F.cross_entropy(ag.ones(2, 3), ag.tensor([0, 3])), IndexError, "Target 3 is out of bounds."),
    (lambda: F.cross_entropy(ag.ones(2, 3), ag.tensor([[0], [1]])), RuntimeError,
     "0D or 1D target tensor expected, multi-target not supported"),
    (lambda: F.cross_entropy(ag.ones(2, 3), [0, 1]), TypeError,
     r"cross_entropy_loss\(\): argument 'target' \(position 2\) must be Tensor, not list"),
    (lambda: F.cross_entropy(ag.ones(2, 3), ag.tensor([[0, 1, 1], [1, 1, 1]])), RuntimeError,
     "Expected floating point type for target with class probabilities, got Long"),
    (lambda: F.cross_entropy(ag.ones(2, 3), ag.tensor([0, 1]), reduction="avg"), ValueError,
     "avg is not a valid value for reduction"),
    (lambda: F.cross_entropy(ag.ones(2, 3), ag.tensor([0, 1]), label_smoothing=1.2), RuntimeError,
     "label_smoothing must be between 0.0 and 1.0. Got: 1.2"),
    (lambda: F.nll_loss(ag.ones(2, 3), ag.tensor([0, 1]), weight=ag.ones(4)), RuntimeError,
     r"weight tensor should be defined either for all 3 classes or no classes but got weight tensor of shape: \[4\]"),
    (lambda: F.nll_loss(ag.ones(2, 3, 4), ag.zeros(2, 5, dtype=ag.long)), RuntimeError,
     r"Expected target size \[2, 4\], got \[2, 5\]"),
    (lambda: F.nll_loss(ag.ones(2, 3), ag.tensor([0, 1]), weight=ag.ones(3, requires_grad=True)), RuntimeError,
     "The function 'nll_loss_forward' is not differentiable with respect to argument 'weight'"),
    (lambda: F.binary_cross_entropy(ag.full((2, 3), 0.5), ag.zeros(3)), ValueError,
     "is different to the input size .* is deprecated. Please ensure they have the same size."),
    (lambda: F.binary_cross_entropy(ag.ones(2, 3) * 2, ag.zeros(2, 3)), RuntimeError,
     "all elements of input should be between 0 and 1"),
    (lambda: F.binary_cross_entropy(ag.full((2, 3), 0.5), ag.zeros(2, 3, dtype=ag.long)), RuntimeError,
     "Found dtype Long but expected Float"),
    (lambda: F.binary_cross_entropy_with_logits(ag.ones(2, 3), ag.zeros(3)), ValueError,
     r"Target size \(torch.Size\(\[3\]\)\) must be the same as input size \(torch.Size\(\[2, 3\]\)\)"),
    (lambda: F.mse_loss(ag.ones(2, 3), ag.zeros(2, 3), reduction="avg"), ValueError,
     "avg is not a valid value for reduction"),
    (lambda: F.one_hot(ag.tensor([0, 5]), 3), RuntimeError, "Class values must be smaller than num_classes."),
    (lambda: F.one_hot(ag.tensor([0.0])), RuntimeError,
     "one_hot is only applicable to index tensor of type LongTensor."),
    (lambda: F.dropout(ag.ones(2), 1.5), ValueError, "dropout probability has to be between 0 and 1, but got 1.5"),
    (lambda: F.pad(ag.ones(2, 3), (1,)), RuntimeError, "Padding length must be divisible by 2"),
    (lambda: nn.Linear(3, 4)(ag.ones(2, 5)), RuntimeError,
     r"mat1 and mat2 shapes cannot be multiplied \(2x5 and 3x4\)"),
    (lambda: nn.Linear(3, 4)(ag.ones(2, 3, dtype=ag.float64)), RuntimeError,
     "mat1 and mat2 must have the same dtype, but got Double and Float"),
    (lambda: nn.Linear(3, 4)(ag.tensor(1.0)), RuntimeError,
     "both arguments to linear need to be at least 1D, but they are 0D and 2D"),
    (lambda: F.relu([1.0]), TypeError, r"relu\(\): argument 'input' \(position 1\) must be Tensor, not list"),
]


@pytest.mark.parametrize("call, exc, message", LOSS_ERRORS, ids=[str(i) for i in range(len(LOSS_ERRORS))])
def test_functional_errors_match_pytorch(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_legacy_reduction_flags_warn_and_apply():
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated, please use "
                                         "reduction='sum' instead."):
        loss = F.mse_loss(ag.tensor([1.0, 2.0]), ag.zeros(2), size_average=False)
    close(loss, 5.0)
    with pytest.warns(UserWarning, match="reduction='none'"):
        assert nn.MSELoss(reduce=False).reduction == "none"


# ---------------------------------------------------------------------------- linear, dropout, one_hot, pad
W = [[0.1, 0.2, 0.3], [-0.3, 0.2, -0.1]]
B = [0.5, -0.5]


def test_linear_records_addmm_like_pytorch():
    x, w, b = leaf(), leaf(W), leaf(B)
    y = F.linear(x, w, b)
    assert y.grad_fn.name() == "AddmmBackward0"
    assert names(y) == ["torch::autograd::AccumulateGrad", "torch::autograd::AccumulateGrad", "TBackward0"]
    close(y, np.array(X) @ np.array(W).T + B)
    y.backward(ag.tensor([[1.0, 2.0], [3.0, -1.0]]))
    g = np.array([[1.0, 2.0], [3.0, -1.0]])
    close(x.grad, g @ np.array(W))
    close(w.grad, g.T @ np.array(X))
    close(b.grad, g.sum(0))
    assert F.linear(x, w).grad_fn.name() == "MmBackward0"
    one = F.linear(leaf(X[0]), w, b)
    assert one.grad_fn.name() == "ViewBackward0" and names(one) == ["AddmmBackward0"] and one.shape == (2,)
    batched = F.linear(leaf([X, X]), w, b)
    assert batched.grad_fn.name() == "ViewBackward0" and batched.shape == (2, 2, 2)
    close(batched[1], y.detach().numpy())


def test_linear_module_init_shapes_and_seed():
    ag.manual_seed(3)
    a = nn.Linear(4, 3)
    ag.manual_seed(3)
    b = nn.Linear(4, 3)
    assert a.weight.shape == (3, 4) and a.bias.shape == (3,)
    assert np.array_equal(a.weight.detach().numpy(), b.weight.detach().numpy())
    assert np.abs(a.weight.detach().numpy()).max() <= 0.5 and np.abs(a.bias.detach().numpy()).max() <= 0.5
    assert not np.array_equal(a.weight.detach().numpy(), nn.Linear(4, 3).weight.detach().numpy())
    assert nn.Linear(2, 2, bias=False).bias is None
    assert nn.Linear(2, 2, dtype=ag.float64).weight.dtype is ag.float64


def test_dropout_train_eval_and_identity_cases():
    ag.manual_seed(0)
    x = ag.ones(4000, requires_grad=True)
    y = F.dropout(x, 0.25)
    kept = y.detach().numpy() != 0
    assert y.grad_fn.name() == "MulBackward0"
    assert 0.7 < kept.mean() < 0.8
    close(y.detach().numpy()[kept], np.full(kept.sum(), 1 / 0.75))
    y.sum().backward()
    close(x.grad, np.where(kept, 1 / 0.75, 0.0))
    assert F.dropout(x, 0.0) is x and F.dropout(x, 0.5, training=False) is x
    drop = nn.Dropout(0.5)
    assert drop.eval()(x) is x
    assert (drop.train()(x).detach().numpy() == 0).any()
    assert not F.dropout(x, 1.0).detach().numpy().any()


def test_one_hot_and_pad_values():
    assert F.one_hot(ag.tensor([0, 2, 1])).tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert F.one_hot(ag.tensor([1, 0]), num_classes=4).dtype is ag.int64
    padded = F.pad(leaf(X), (1, -2, 1, 0), value=9.0)
    assert padded.grad_fn.name() == "ConstantPadNdBackward0"
    close(padded, [[9.0, 9.0], [9.0, 1.5], [9.0, 0.1]])


# ---------------------------------------------------------------------------- modules
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 2)
        self.w = nn.Parameter(ag.ones(2))
        self.register_buffer("buf", ag.zeros(1))
        self.register_buffer("tmp", ag.zeros(1), persistent=False)
        self.act = nn.ReLU()
        self.head = nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())

    def forward(self, x):
        return self.head(self.act(self.fc1(x)) * self.w)


def test_module_registration_order_and_traversal():
    net = Net()
    assert [n for n, _ in net.named_parameters()] == ["w", "fc1.weight", "fc1.bias", "head.0.weight", "head.0.bias"]
    assert list(net.parameters())[1] is net.fc1.weight
    assert [n for n, _ in net.named_modules()] == ["", "fc1", "act", "head", "head.0", "head.1"]
    assert [type(m).__name__ for m in net.children()] == ["Linear", "ReLU", "Sequential"]
    assert [n for n, _ in net.named_buffers()] == ["buf", "tmp"]
    assert list(net.state_dict()) == ["w", "buf", "fc1.weight", "fc1.bias", "head.0.weight", "head.0.bias"]
    assert [n for n, _ in net.named_parameters(recurse=False)] == ["w"]
    shared = nn.Sequential(net.fc1, net.fc1)
    assert len(list(shared.parameters())) == 2
    visited = []
    tree = nn.Sequential(nn.Linear(1, 1), nn.Sequential(nn.ReLU(), nn.Tanh()))
    tree.apply(lambda m: visited.append(type(m).__name__))
    assert visited == ["Linear", "ReLU", "Tanh", "Sequential", "Sequential"]


def test_module_repr_matches_pytorch():
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 1, bias=False), nn.Sigmoid()),
                          nn.Dropout(0.2), nn.LeakyReLU(0.1), nn.Softmax(dim=1), nn.Flatten(), nn.CrossEntropyLoss())
    assert repr(model) == """Sequential(
  (0): Linear(in_features=2, out_features=3, bias=True)
  (1): ReLU()
  (2): Sequential(
    (0): Linear(in_features=3, out_features=1, bias=False)
    (1): Sigmoid()
  )
  (3): Dropout(p=0.2, inplace=False)
  (4): LeakyReLU(negative_slope=0.1)
  (5): Softmax(dim=1)
  (6): Flatten(start_dim=1, end_dim=-1)
  (7): CrossEntropyLoss()
)"""
    assert repr(Net()) == """Net(
  (fc1): Linear(in_features=2, out_features=2, bias=True)
  (act): ReLU()
  (head): Sequential(
    (0): Linear(in_features=2, out_features=1, bias=True)
    (1): Sigmoid()
  )
)"""
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.ReLU()])
    assert repr(layers) == """ModuleList(
  (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)
  (3): ReLU()
)"""
    assert repr(nn.Sequential()) == "Sequential()" and repr(nn.ELU()) == "ELU(alpha=1.0)"
    assert repr(nn.GELU()) == "GELU(approximate='none')" and repr(nn.ReLU(inplace=True)) == "ReLU(inplace=True)"


def test_sequential_indexing_and_editing():
    seq = nn.Sequential(nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 1))
    assert isinstance(seq[-1], nn.Linear) and len(seq) == 3
    assert [type(m).__name__ for m in seq[1:]] == ["ReLU", "Linear"] and list(seq[1:]._modules) == ["1", "2"]
    del seq[1]
    assert list(seq._modules) == ["0", "1"]
    seq.append(nn.Tanh())
    with pytest.raises(IndexError, match="index 5 is out of range"):
        seq[5]


def test_state_dict_round_trip_and_load_errors():
    src, dst = Net(), Net()
    sd = src.state_dict()
    assert not sd["w"].requires_grad and sd["fc1.weight"].data_ptr() == src.fc1.weight.data_ptr()
    before = dst.fc1.weight
    result = dst.load_state_dict(copy.deepcopy(sd))
    assert repr(result) == "<All keys matched successfully>"
    assert dst.fc1.weight is before and dst.fc1.weight._version > 0
    x = ag.tensor([[1.0, -2.0], [0.5, 0.25]])
    assert src(x).tolist() == dst(x).tolist()
    with pytest.raises(RuntimeError) as err:
        dst.load_state_dict({"w": ag.ones(2)})
    assert str(err.value) == ('Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "buf", '
                              '"fc1.weight", "fc1.bias", "head.0.weight", "head.0.bias". ')
    with pytest.raises(RuntimeError, match=r'Unexpected key\(s\) in state_dict: "extra". '):
        dst.load_state_dict({**sd, "extra": ag.ones(1)})
    with pytest.raises(RuntimeError, match=r"size mismatch for w: copying a param with shape torch.Size\(\[3\]\) "
                                           r"from checkpoint, the shape in current model is torch.Size\(\[2\]\)."):
        dst.load_state_dict({**sd, "w": ag.ones(3)})
    partial = dst.load_state_dict({"w": ag.ones(2)}, strict=False)
    assert partial.missing_keys[0] == "buf" and partial.unexpected_keys == []


def test_deepcopy_copies_parameters_without_grads():
    net = Net()
    net(ag.ones(1, 2)).sum().backward()
    twin = copy.deepcopy(net)
    assert twin.fc1.weight is not net.fc1.weight and isinstance(twin.fc1.weight, nn.Parameter)
    assert twin.fc1.weight.tolist() == net.fc1.weight.tolist() and twin.fc1.weight.grad is None


def test_module_attribute_errors_match_pytorch():
    class NoInit(nn.Module):
        def __init__(self):
            self.fc = nn.Linear(1, 1)

    with pytest.raises(AttributeError, match=r"cannot assign module before Module.__init__\(\) call"):
        NoInit()
    with pytest.raises(AttributeError, match="'Linear' object has no attribute 'foo'"):
        nn.Linear(2, 2).foo
    with pytest.raises(TypeError, match=r"cannot assign 'torch.FloatTensor' as parameter 'weight' "
                                        r"\(torch.nn.Parameter or None expected\)"):
        nn.Linear(2, 2).weight = ag.ones(2, 2)
    with pytest.raises(KeyError, match=r"parameter name can.+t contain"):
        nn.Module().register_parameter("a.b", nn.Parameter(ag.ones(1)))
    with pytest.raises(NotImplementedError, match='Module \\[Module\\] is missing the required "forward" function'):
        nn.Module()(1)


def test_zero_grad_sets_none_by_default_or_zeroes_in_place():
    lin = nn.Linear(2, 1)
    lin(ag.ones(3, 2)).sum().backward()
    grad = lin.weight.grad
    lin.zero_grad(set_to_none=False)
    assert lin.weight.grad is grad and lin.weight.grad.tolist() == [[0.0, 0.0]]
    lin.zero_grad()
    assert lin.weight.grad is None
    opt = optim.SGD(lin.parameters(), lr=0.1)
    lin(ag.ones(3, 2)).sum().backward()
    opt.zero_grad()
    assert lin.weight.grad is None and lin.bias.grad is None


def test_train_eval_and_dtype_conversion():
    net = Net()
    assert net.training and not net.eval().head[1].training and net.train().head[0].training
    weight = net.fc1.weight
    net.double()
    assert net.fc1.weight is weight and weight.dtype is ag.float64 and net.buf.dtype is ag.float64
    assert net(ag.ones(1, 2, dtype=ag.float64)).dtype is ag.float64


def test_forward_hooks_run_and_can_be_removed():
    lin = nn.Linear(2, 1)
    seen = []
    handle = lin.register_forward_hook(lambda m, args, out: seen.append(tuple(out.shape)))
    lin(ag.ones(3, 2))
    handle.remove()
    lin(ag.ones(1, 2))
    assert seen == [(3, 1)]
    lin.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
    assert lin(ag.ones(1, 2)).tolist() == [[lin.bias.detach().item()]]


def test_parameter_is_a_leaf_sharing_storage():
    t = ag.ones(2)
    p = nn.Parameter(t)
    t.add_(1)
    assert repr(p) == "Parameter containing:\ntensor([2., 2.], requires_grad=True)"
    assert isinstance(p, ag.Tensor) and isinstance(p, nn.Parameter) and p.is_leaf
    assert type(p * 2) is ag.Tensor and type(p.detach()) is ag.Tensor
    assert repr(nn.Parameter(ag.tensor([1, 2]), requires_grad=False)) == "Parameter containing:\ntensor([1, 2])"
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype can require gradients"):
        nn.Parameter(ag.tensor([1, 2]))


def test_init_functions_fill_in_place_without_recording():
    w = nn.Parameter(ag.empty(300, 200))
    nn.init.xavier_uniform_(w)
    bound = math.sqrt(6 / 500)
    assert w.is_leaf and w.requires_grad and w._version > 0
    assert np.abs(w.detach().numpy()).max() <= bound and np.abs(w.detach().numpy()).max() > 0.9 * bound
    nn.init.kaiming_uniform_(w, nonlinearity="relu")
    assert np.abs(w.detach().numpy()).max() <= math.sqrt(6 / 200)
    nn.init.normal_(w, 2.0, 0.5)
    assert abs(w.detach().numpy().mean() - 2.0) < 0.02 and abs(w.detach().numpy().std() - 0.5) < 0.02
    assert nn.init.constant_(ag.ones(2), 3.0).tolist() == [3.0, 3.0]
    assert nn.init.eye_(ag.ones(2, 3)).tolist() == [[1, 0, 0], [0, 1, 0]]
    assert nn.init.calculate_gain("tanh") == 5 / 3 and nn.init.calculate_gain("leaky_relu") == math.sqrt(2 / 1.0001)
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed for tensor with fewer than 2"):
        nn.init.xavier_uniform_(ag.ones(3))


def test_clip_grad_norm_scales_all_gradients_together():
    a, b = nn.Parameter(ag.tensor([3.0, 0.0])), nn.Parameter(ag.tensor([4.0]))
    a.grad, b.grad = ag.tensor([3.0, 0.0]), ag.tensor([4.0])
    total = nn.utils.clip_grad_norm_([a, b], 1.0)
    close(total, 5.0)
    close(a.grad, [3 / (5 + 1e-6), 0.0])
    close(b.grad, [4 / (5 + 1e-6)])
    b.grad = ag.tensor([-7.0])
    nn.utils.clip_grad_value_(b, 2)
    assert b.grad.tolist() == [-2.0]


# ---------------------------------------------------------------------------- optimizers
def _model():
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    with ag.no_grad():
        model[0].weight.copy_(ag.tensor([[0.5, -0.3], [0.1, 0.8], [-0.6, 0.2]]))
        model[0].bias.copy_(ag.tensor([0.1, -0.2, 0.05]))
        model[2].weight.copy_(ag.tensor([[0.3, -0.7, 0.4]]))
        model[2].bias.copy_(ag.tensor([0.2]))
    return model


TRAJECTORIES = [  # PyTorch 2.13: 5 steps of MSELoss on the model above; losses, then final parameters
    ("SGD", dict(lr=0.1, momentum=0.9), [1.472464, 1.08195, 0.645826, 0.364764, 0.201445],
     [[0.7447603, 0.2797625, -0.196919, 0.3690619, -0.2893054, 0.9557636], [0.0486729, -0.0856035, -0.0007766],
      [0.3405227, 0.6202167, 0.4456888], [0.0440978]]),
    ("SGD", dict(lr=0.1), [1.472464, 1.08195, 0.844722, 0.680084, 0.55557],
     [[0.5951057, -0.0684495, -0.0144467, 0.6279026, -0.4652588, 0.5110508], [0.0820699, -0.1445405, 0.0371177],
      [0.3386796, -0.1805352, 0.445215], [0.1627129]]),
    ("Adam", dict(lr=0.05), [1.472464, 1.234441, 1.059728, 0.912763, 0.775357],
     [[0.7244714, -0.0606568, -0.1374802, 0.551971, -0.3629362, 0.4407881], [0.1391013, 0.0505632, 0.034548],
      [0.3433314, -0.4571617, 0.3358367], [0.238556]]),
    ("Adam", dict(lr=0.05, betas=(0.8, 0.9), weight_decay=0.1, amsgrad=True),
     [1.472464, 1.234441, 1.059323, 0.91179, 0.773814],
     [[0.693055, -0.0627915, -0.1375026, 0.5518119, -0.3599316, 0.4393326], [0.0921479, 0.0497137, -0.005138],
      [0.2972005, -0.4569432, 0.3274021], [0.2136909]]),
    ("AdamW", dict(lr=0.05), [1.472464, 1.233703, 1.058558, 0.911368, 0.773914],
     [[0.7229526, -0.0601859, -0.137461, 0.5502299, -0.3617241, 0.4399998], [0.1387486, 0.0508118, 0.0344128],
      [0.3427541, -0.4556955, 0.3350143], [0.2379456]]),
    ("RMSprop", dict(lr=0.05, alpha=0.9), [1.472464, 0.941754, 0.667597, 0.443868, 0.269818],
     [[0.7211674, 0.1010033, -0.2052163, 0.3434058, -0.2570819, 0.6106985], [-0.1604621, 0.2700564, -0.1302689],
      [0.5731154, -0.3388393, 0.6672618], [0.0837583]]),
    ("RMSprop", dict(lr=0.02, momentum=0.9, centered=True, weight_decay=0.1),
     [1.472464, 0.884143, 0.582639, 0.444739, 0.277616],
     [[0.8625138, 0.5320966, -0.8526938, -0.5616554, 0.4596826, 1.1930958], [0.4634899, 1.1900176, -0.4992095],
      [0.308949, 0.2783591, 0.783581], [-0.2246656]]),
    ("Adagrad", dict(lr=0.2), [1.472464, 0.885231, 0.599369, 0.382377, 0.224363],
     [[0.7430266, 0.0795966, -0.2732799, 0.2659016, -0.196747, 0.6590838], [-0.1247546, 0.3444526, -0.1322375],
      [0.4547649, -0.3093036, 0.7121716], [0.0927417]]),
    ("Adagrad", dict(lr=0.2, lr_decay=0.1, initial_accumulator_value=0.1, weight_decay=0.05),
     [1.472464, 0.850932, 0.594094, 0.415476, 0.290193],
     [[0.6563475, 0.1002891, -0.1838816, 0.361952, -0.2785412, 0.5999267], [-0.0621828, 0.0695321, -0.0673184],
      [0.4615808, -0.3086216, 0.6143257], [0.0411358]]),
]


@pytest.mark.parametrize("name, kwargs, losses, params", TRAJECTORIES, ids=[
    "sgd_momentum", "sgd", "adam", "adam_amsgrad_wd", "adamw", "rmsprop", "rmsprop_centered_momentum_wd",
    "adagrad", "adagrad_decay_init_wd"])
def test_training_trajectory_matches_pytorch(name, kwargs, losses, params):
    model = _model()
    opt = getattr(optim, name)(model.parameters(), **kwargs)
    x = ag.tensor([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.8], [2.0, 1.0]])
    y = ag.tensor([[1.0], [0.0], [-1.0], [0.5]])
    seen = []
    for _ in range(5):
        opt.zero_grad()
        loss = nn.MSELoss()(model(x), y)
        loss.backward()
        opt.step()
        seen.append(loss.detach().item())
    close(seen, losses, rtol=2e-6, atol=1e-6)
    for p, expected in zip(model.parameters(), params):
        close(p, expected, rtol=1e-5, atol=3e-7)


def _numpy_adam(p, grads, lr, b1, b2, eps):
    m = v = np.zeros_like(p)
    for t, g in enumerate(grads, 1):
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        p = p - lr / (1 - b1 ** t) * m / (np.sqrt(v) / math.sqrt(1 - b2 ** t) + eps)
    return p


def test_sgd_nesterov_and_adam_follow_the_reference_formulas_in_float64():
    rng = np.random.default_rng(1)
    start, grads = rng.standard_normal(5), [rng.standard_normal(5) for _ in range(6)]
    p = nn.Parameter(ag.tensor(start))
    q = nn.Parameter(ag.tensor(start))
    sgd = optim.SGD([p], lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)
    adam = optim.Adam([q], lr=0.01, betas=(0.8, 0.99), eps=1e-6)
    ref, buf = start.copy(), None
    for g in grads:
        p.grad, q.grad = ag.tensor(g), ag.tensor(g)
        sgd.step()
        adam.step()
        d = g + 0.01 * ref
        buf = d.copy() if buf is None else 0.9 * buf + d
        ref = ref - 0.1 * (d + 0.9 * buf)
    close(p, ref, rtol=1e-12, atol=1e-14)
    close(q, _numpy_adam(start, grads, 0.01, 0.8, 0.99, 1e-6), rtol=1e-12, atol=1e-14)
    assert adam.state[q]["step"].item() == 6.0 and sgd.state[p]["momentum_buffer"].shape == (5,)


def test_optimizer_repr_state_dict_and_errors():
    w = nn.Parameter(ag.ones(2))
    assert repr(optim.SGD([w], lr=0.1)) == """SGD (
Parameter Group 0
    dampening: 0
    differentiable: False
    foreach: None
    fused: None
    lr: 0.1
    maximize: False
    momentum: 0
    nesterov: False
    weight_decay: 0
)"""
    opt = optim.Adam([{"params": [w]}, {"params": [nn.Parameter(ag.ones(1))], "lr": 0.5}])
    assert [g["lr"] for g in opt.param_groups] == [0.001, 0.5]
    (w * w).sum().backward()
    opt.step()
    sd = opt.state_dict()
    assert sd["param_groups"][1]["params"] == [1] and list(sd["state"]) == [0]
    assert list(sd["state"][0]) == ["step", "exp_avg", "exp_avg_sq"]
    fresh_w = nn.Parameter(ag.ones(2))
    fresh = optim.Adam([{"params": [fresh_w]}, {"params": [nn.Parameter(ag.ones(1))]}])
    fresh.load_state_dict(sd)
    assert fresh.param_groups[1]["lr"] == 0.5 and fresh.state[fresh_w]["step"].item() == 1.0
    for call, exc, message in [
        (lambda: optim.SGD([], lr=0.1), ValueError, "optimizer got an empty parameter list"),
        (lambda: optim.SGD(w, lr=0.1), TypeError, "params argument given to the optimizer should be an iterable "
                                                  "of Tensors or dicts, but got torch.FloatTensor"),
        (lambda: optim.SGD([w], lr=-1), ValueError, "Invalid learning rate: -1"),
        (lambda: optim.SGD([w], lr=0.1, nesterov=True), ValueError,
         "Nesterov momentum requires a momentum and zero dampening"),
        (lambda: optim.SGD([w * 2], lr=0.1), ValueError, "can't optimize a non-leaf Tensor"),
        (lambda: optim.Adam([w], betas=(1.0, 0.9)), ValueError, "Invalid beta parameter at index 0: 1.0"),
    ]:
        with pytest.raises(exc, match=re_escape(message)):
            call()


def re_escape(text):
    import re
    return re.escape(text)


def test_step_runs_closure_with_grad_enabled_and_updates_in_place():
    w = nn.Parameter(ag.tensor([1.0, -1.0]))
    opt = optim.SGD([w], lr=0.5)
    version = w._version

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss

    with ag.no_grad():
        loss = opt.step(closure)
    assert loss.detach().item() == 2.0 and w.tolist() == [0.0, 0.0] and w._version > version and w.is_leaf


SCHEDULES = [  # PyTorch 2.13: get_last_lr() after each of the first steps (initial lr 0.1)
    (lambda o: optim.lr_scheduler.StepLR(o, step_size=3, gamma=0.5),
     [0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025, 0.025, 0.0125]),
    (lambda o: optim.lr_scheduler.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.1),
     [0.1, 0.01, 0.01, 0.01, 0.0001, 0.0001]),
    (lambda o: optim.lr_scheduler.ExponentialLR(o, gamma=0.9), [0.09, 0.081, 0.0729, 0.06561]),
    (lambda o: optim.lr_scheduler.LambdaLR(o, lambda e: 1 / (e + 1)), [0.05, 0.0333333333, 0.025, 0.02]),
    (lambda o: optim.lr_scheduler.CosineAnnealingLR(o, T_max=4, eta_min=0.01),
     [0.0868198052, 0.055, 0.0231801948, 0.01, 0.0231801948, 0.055, 0.0868198052, 0.1, 0.0868198052]),
]


@pytest.mark.parametrize("make, lrs", SCHEDULES, ids=["step", "multistep", "exponential", "lambda", "cosine"])
def test_lr_schedulers_match_pytorch(make, lrs):
    w = nn.Parameter(ag.ones(1))
    opt = optim.SGD([w], lr=0.1, momentum=0.9)
    sched = make(opt)
    seen = []
    for _ in lrs:
        opt.step()
        sched.step()
        seen.append(sched.get_last_lr()[0])
    close(seen, lrs, rtol=0, atol=1e-10)  # recorded to 10 decimals
    assert opt.param_groups[0]["lr"] == seen[-1] and opt.param_groups[0]["initial_lr"] == 0.1


def test_lr_scheduler_warns_when_stepped_before_the_optimizer():
    sched = optim.lr_scheduler.StepLR(optim.SGD([nn.Parameter(ag.ones(1))], lr=0.1), 2)
    with pytest.warns(UserWarning, match=re_escape("Detected call of `lr_scheduler.step()` before `optimizer.step()`")):
        sched.step()


def test_embedding_lookup_gradient_and_padding():
    emb = nn.Embedding(10, 3)
    assert repr(emb) == "Embedding(10, 3)"
    assert repr(nn.Embedding(10, 3, padding_idx=-1)) == "Embedding(10, 3, padding_idx=9)"
    table = np.arange(30.0).reshape(10, 3) / 10
    with ag.no_grad():
        emb.weight.copy_(ag.tensor(table))
    idx = np.array([[1, 2], [1, 9]])
    out = emb(ag.tensor(idx))
    assert out.grad_fn.name() == "EmbeddingBackward0" and out.shape == (2, 2, 3)
    close(out, table[idx])
    upstream = np.arange(12.0).reshape(2, 2, 3)
    (out * ag.tensor(upstream)).sum().backward()
    expected = np.zeros((10, 3))
    np.add.at(expected, idx.ravel(), upstream.reshape(-1, 3))
    close(emb.weight.grad, expected)
    padded = nn.Embedding(4, 2, padding_idx=0)
    assert padded.weight[0].tolist() == [0.0, 0.0]
    padded(ag.tensor([0, 0, 1])).sum().backward()
    assert padded.weight.grad.tolist() == [[0.0, 0.0], [1.0, 1.0], [0.0, 0.0], [0.0, 0.0]]
    with pytest.raises(IndexError, match="index out of range in self"):
        emb(ag.tensor([10]))
    with pytest.raises(RuntimeError, match="Expected tensor for argument #1 'indices' to have one of the following "
                                           "scalar types: Long, Int; but got torch.FloatTensor instead"):
        emb(ag.tensor([1.0]))


def test_torch_alias_resolves_every_nn_and_optim_path_to_one_module():
    import importlib
    import sys

    saved = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}
    try:
        ag.install_as_torch()
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # no ImportWarning from the alias either
            for path in ("torch.nn", "torch.nn.functional", "torch.nn.init", "torch.nn.utils",
                         "torch.nn.parameter", "torch.optim", "torch.optim.lr_scheduler"):
                alias = importlib.import_module(path)
                assert alias is importlib.import_module("autograd_py" + path[len("torch"):])
            from torch.nn.utils import clip_grad_norm_  # one Tensor class: this must work on ours
            p = nn.Parameter(ag.ones(2))
            (p * 2).sum().backward()
            assert abs(clip_grad_norm_([p], 1.0).item() - 8 ** 0.5) < 1e-6
    finally:
        for k in [k for k in sys.modules if k == "torch" or k.startswith("torch.")]:
            del sys.modules[k]
        sys.modules.update(saved)
