"""nn's further activations (relu6 ... prelu) against values read off torch 2.13: float32 forward values
and gradients to the last bit, grad_fn names, saved values, in-place forms, module reprs and errors."""
import numpy as np
import pytest

import autograd_py as torch
import autograd_py.nn as nn
import autograd_py.nn.functional as F

# name: (expression in x, grad_fn name, values, gradient of (y * linspace(-1, 1)).sum()), recorded
# from torch 2.13 on x = [-4, -1.5, -0.25, 0, 0.5, 2, 3.5, 7] (float32)
CASES = {
    'relu6': ('F.relu6(x)', 'HardtanhBackward0', [0.0, 0.0, 0.0, 0.0, 0.5, 2.0, 3.5, 6.0], [0.0, 0.0, 0.0, 0.0, 0.14285710453987122, 0.4285714030265808, 0.7142857313156128, 0.0]),
    'hardtanh': ('F.hardtanh(x, -2.0, 2.0)', 'HardtanhBackward0', [-2.0, -1.5, -0.25, 0.0, 0.5, 2.0, 2.0, 2.0], [0.0, -0.7142857313156128, -0.4285714030265808, -0.14285710453987122, 0.14285710453987122, 0.0, 0.0, 0.0]),
    'logsigmoid': ('F.logsigmoid(x)', 'LogSigmoidBackward0', [-4.0181498527526855, -1.7014132738113403, -0.825939416885376, -0.6931471824645996, -0.4740769863128662, -0.12692801654338837, -0.029750417917966843, -0.000911466486286372], [-0.9820137619972229, -0.5839818120002747, -0.24093276262283325, -0.07142855226993561, 0.05393436923623085, 0.05108696222305298, 0.02093730866909027, 0.0009110512328334153]),
    'selu': ('F.selu(x)', 'EluBackward0', [-1.7258986234664917, -1.3658143281936646, -0.38889017701148987, 0.0, 0.5253505110740662, 2.1014020442962646, 3.6774535179138184, 7.354907035827637], [-0.03220071271061897, -0.28020358085632324, -0.5868038535118103, -0.2511569857597351, 0.15010011196136475, 0.4503004252910614, 0.7505007386207581, 1.0507010221481323]),
    'celu': ('F.celu(x, 2.0)', 'CeluBackward0', [-1.7293294668197632, -1.0552668571472168, -0.2350061982870102, 0.0, 0.5, 2.0, 3.5, 7.0], [-0.1353352814912796, -0.33740466833114624, -0.37821292877197266, -0.14285710453987122, 0.14285710453987122, 0.4285714030265808, 0.7142857313156128, 1.0]),
    'mish': ('F.mish(x)', 'MishBackward0', [-0.07259175181388855, -0.2980997562408447, -0.12992696464061737, 0.0, 0.37524524331092834, 1.9439589977264404, 3.493990898132324, 6.999988555908203], [0.05377320572733879, 0.045784153044223785, -0.18849238753318787, -0.08571426570415497, 0.12663201987743378, 0.4582791030406952, 0.7213851809501648, 1.0000216960906982]),
    'softsign': ('F.softsign(x)', 'DivBackward0', [-0.800000011920929, -0.6000000238418579, -0.20000000298023224, 0.0, 0.3333333432674408, 0.6666666865348816, 0.7777777910232544, 0.875], [-0.040000006556510925, -0.11428572237491608, -0.2742857038974762, -0.14285710453987122, 0.06349204480648041, 0.0476190447807312, 0.03527337312698364, 0.015625]),
    'hardswish': ('F.hardswish(x)', 'HardswishBackward0', [-0.0, -0.375, -0.1145833358168602, 0.0, 0.2916666567325592, 1.6666666269302368, 3.5, 7.0], [0.0, -0.0, -0.178571417927742, -0.07142855226993561, 0.09523807466030121, 0.5, 0.7142857313156128, 1.0]),
    'hardsigmoid': ('F.hardsigmoid(x)', 'HardsigmoidBackward0', [0.0, 0.25, 0.4583333432674408, 0.5, 0.5833333134651184, 0.8333333134651184, 1.0, 1.0], [0.0, -0.1190476268529892, -0.0714285671710968, -0.023809518665075302, 0.023809518665075302, 0.0714285671710968, 0.0, 0.0]),
    'tanhshrink': ('F.tanhshrink(x)', 'SubBackward0', [-3.0006706714630127, -0.5948517322540283, -0.005081340670585632, 0.0, 0.037882834672927856, 1.0359723567962646, 2.501821994781494, 6.000001907348633], [-0.9986591339111328, -0.5852096080780029, -0.025707930326461792, 0.0, 0.030507460236549377, 0.3982924818992615, 0.711685061454773, 0.9999966621398926]),
    'softshrink': ('F.softshrink(x, 1.0)', 'SoftshrinkBackward0', [-3.0, -0.5, -0.0, 0.0, 0.0, 1.0, 2.5, 6.0], [-1.0, -0.7142857313156128, 0.0, 0.0, 0.0, 0.4285714030265808, 0.7142857313156128, 1.0]),
    'hardshrink': ('F.hardshrink(x)', 'HardshrinkBackward0', [-4.0, -1.5, 0.0, 0.0, 0.0, 2.0, 3.5, 7.0], [-1.0, -0.7142857313156128, 0.0, 0.0, 0.0, 0.4285714030265808, 0.7142857313156128, 1.0]),
    'threshold': ('F.threshold(x, 0.1, 20.0)', 'ThresholdBackward0', [20.0, 20.0, 20.0, 20.0, 0.5, 2.0, 3.5, 7.0], [0.0, 0.0, 0.0, 0.0, 0.14285710453987122, 0.4285714030265808, 0.7142857313156128, 1.0]),
    'softmin': ('F.softmin(x, 0)', 'SoftmaxBackward0', [0.8786759972572327, 0.0721261203289032, 0.020664479583501816, 0.016093512997031212, 0.009761208668351173, 0.002178020076826215, 0.00048598196008242667, 1.4675383681606036e-05], [0.05389775335788727, -0.016183264553546906, -0.010540721006691456, -0.012807268649339676, -0.010556916706264019, -0.002977857831865549, -0.0008033019257709384, -2.8450584068195894e-05]),
    'glu': ('F.glu(x)', 'GluBackward0', [-2.489837408065796, -1.3211956024169922, -0.242671936750412, 0.0], [-0.622459352016449, -0.2935989797115326, 0.3235625624656677, 0.9990890026092529, 0.9400148391723633, 0.05249680578708649, -0.002371086971834302, 0.0]),
    'prelu': ('F.prelu(x, torch.tensor([0.25]))', 'PreluKernelBackward0', [-1.0, -0.375, -0.0625, 0.0, 0.5, 2.0, 3.5, 7.0], [-0.25, -0.1785714328289032, -0.1071428507566452, -0.035714276134967804, 0.14285710453987122, 0.4285714030265808, 0.7142857313156128, 1.0]),
}
# float32 kernels autograd_py does not reproduce bit for bit (SLEEF's vectorised tanh/log1p in mish)
LAST_BITS = {"mish"}


def _x():
    return torch.tensor([-4.0, -1.5, -0.25, 0.0, 0.5, 2.0, 3.5, 7.0], requires_grad=True)


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_gradients_and_grad_fn_match_torch(name):
    expr, node, values, grad = CASES[name]
    x = _x()
    y = eval(expr, {"F": F, "torch": torch, "x": x})
    assert y.grad_fn.name() == node
    w = torch.linspace(-1, 1, y.numel()).reshape(y.shape)
    (g,) = torch.autograd.grad((y * w).sum(), x)
    check = np.testing.assert_allclose if name in LAST_BITS else np.testing.assert_array_equal
    kwargs = {"rtol": 1e-6} if name in LAST_BITS else {}
    check(y.detach().numpy(), np.array(values, dtype=np.float32), **kwargs)
    check(g.numpy(), np.array(grad, dtype=np.float32), **kwargs)


def test_softshrink_keeps_the_sign_of_zero():
    assert str(F.softshrink(torch.tensor([-0.25, 0.25]))) == "tensor([-0., 0.])"


def test_selu_and_celu_record_elu_nodes_with_torch_constants():
    x = _x()
    y = F.selu(x)
    assert (y.grad_fn.name(), y.grad_fn._saved_alpha, y.grad_fn._saved_scale, y.grad_fn._saved_input_scale) == (
        "EluBackward0", 1.6732632423543772, 1.0507009873554805, 1)
    y = F.celu(x, 2.0)
    assert (y.grad_fn.name(), y.grad_fn._saved_alpha) == ("CeluBackward0", 2.0)


@pytest.mark.parametrize("call, node, saved", [
    (lambda t: F.relu6(t, inplace=True), "HardtanhBackward0", "self"),
    (lambda t: F.hardtanh_(t), "HardtanhBackward0", "self"),
    (lambda t: torch.selu_(t), "EluBackward1", "result"),
    (lambda t: F.celu(t, 1.5, inplace=True), "CeluBackward1", "result"),
    (lambda t: F.mish(t, inplace=True), "MishBackward0", "self"),
    (lambda t: F.hardswish(t, inplace=True), "HardswishBackward0", "self"),
    (lambda t: F.threshold_(t, 0.1, 20.0), "ThresholdBackward1", "self"),
])
def test_inplace_forms_record_torch_nodes(call, node, saved):
    x = _x()
    y = x * 1
    assert call(y) is y
    assert y.grad_fn.name() == node
    kept = getattr(y.grad_fn, "_saved_" + saved)
    if saved == "self":  # the input from before the write, as a clone (derivatives.yaml's original_self)
        assert kept.grad_fn.name() == "CloneBackward0"
        np.testing.assert_array_equal(kept.detach().numpy(), x.detach().numpy())
    else:
        assert kept is y or np.array_equal(kept.detach().numpy(), y.detach().numpy())
    (g,) = torch.autograd.grad(y.sum(), x)
    z = x.detach().clone().requires_grad_()
    (expected,) = torch.autograd.grad(call(z * 1).sum(), z)
    np.testing.assert_array_equal(g.numpy(), expected.numpy())


def test_second_derivatives():
    x = torch.tensor([-4.0, -1.5, -0.25, 0.0, 0.5, 2.0, 3.5], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(F.celu(x).sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist()[3:] == [0.0, 0.0, 0.0, 0.0]  # elu_double_backward: zero at x = 0 too
    (g,) = torch.autograd.grad(F.logsigmoid(x).sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist()[3] == -0.25
    (g,) = torch.autograd.grad((F.relu6(x) ** 2).sum(), x, create_graph=True)
    assert g.grad_fn.name() == "HardtanhBackwardBackward0"
    assert [type(f[0]).__name__ for f in g.grad_fn.next_functions] == ["MulBackward0", "AccumulateGrad"]
    (g,) = torch.autograd.grad(F.hardsigmoid(x).sum(), x, create_graph=True)
    assert type(g.grad_fn).__name__ == "NotImplemented"
    with pytest.raises(RuntimeError, match="derivative for aten::hardsigmoid_backward is not implemented"):
        g.sum().backward()


def test_prelu_per_channel_weight_and_module():
    w = torch.tensor([0.25, 0.1, 0.5], requires_grad=True)
    x = torch.tensor([[-1.0, 2, -3], [4, -5, -6]], requires_grad=True)
    y = F.prelu(x, w)
    assert [type(f[0]).__name__ for f in y.grad_fn.next_functions] == ["AccumulateGrad", "ViewBackward0"]
    y.sum().backward()
    assert x.grad.tolist() == [[0.25, 1.0, 0.5], [1.0, 0.10000000149011612, 0.5]]
    assert w.grad.tolist() == [-1.0, -5.0, -9.0]
    m = nn.PReLU(3, 0.1)
    assert repr(m) == "PReLU(num_parameters=3)"
    assert [n for n, _ in m.named_parameters()] == ["weight"]
    assert m.weight.tolist() == [0.10000000149011612] * 3


@pytest.mark.parametrize("module, text", [
    (nn.ReLU6(), "ReLU6()"), (nn.ReLU6(True), "ReLU6(inplace=True)"),
    (nn.Hardtanh(), "Hardtanh(min_val=-1.0, max_val=1.0)"),
    (nn.Hardtanh(-2, 2, True), "Hardtanh(min_val=-2, max_val=2, inplace=True)"),
    (nn.LogSigmoid(), "LogSigmoid()"), (nn.SELU(True), "SELU(inplace=True)"), (nn.CELU(), "CELU(alpha=1.0)"),
    (nn.CELU(2.0, True), "CELU(alpha=2.0, inplace=True)"), (nn.Mish(), "Mish()"), (nn.Softsign(), "Softsign()"),
    (nn.Hardswish(True), "Hardswish()"), (nn.Hardsigmoid(True), "Hardsigmoid()"), (nn.Softmin(), "Softmin(dim=None)"),
    (nn.Tanhshrink(), "Tanhshrink()"), (nn.Softshrink(), "Softshrink(0.5)"), (nn.Hardshrink(0.3), "Hardshrink(0.3)"),
    (nn.Threshold(0.1, 20), "Threshold(threshold=0.1, value=20)"),
    (nn.Threshold(0.1, 20.0, True), "Threshold(threshold=0.1, value=20.0, inplace=True)"),
    (nn.GLU(), "GLU(dim=-1)"), (nn.PReLU(), "PReLU(num_parameters=1)"),
])
def test_module_reprs(module, text):
    assert repr(module) == text


@pytest.mark.parametrize("call, error, message", [
    (lambda: F.glu(torch.ones(3)), RuntimeError, "Halving dimension must be even, but dimension 0 is size 3"),
    (lambda: F.glu(torch.tensor(1.0)), RuntimeError, "glu does not support scalars because halving size must be even"),
    (lambda: F.glu(torch.ones(2, 3), 2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: F.hardtanh(torch.ones(3), 2, 1), ValueError, "min_val cannot be greater than max_val"),
    (lambda: F.softshrink(torch.ones(3), -1), RuntimeError,
     "lambda must be in range [0, 3.40282e+38] for input dtype Float, but found -1"),
    (lambda: F.prelu(torch.ones(2, 3), torch.ones(2)), RuntimeError,
     "Mismatch of parameter numbers and input channel size. Found parameter numbers = 2 and channel size = 3."),
    (lambda: F.prelu(torch.tensor(1.0), torch.ones(3)), RuntimeError, "Not allow zero-dim input tensor."),
    (lambda: F.prelu(torch.ones(3), 0.25), TypeError, "prelu(): argument 'weight' (position 2) must be Tensor, not float"),
    (lambda: F.relu6([1.0]), TypeError, "relu6(): argument 'input' (position 1) must be Tensor, not list"),
    (lambda: F.logsigmoid(torch.tensor([1, 2])), NotImplementedError, "\"log_sigmoid_cpu\" not implemented for 'Long'"),
    (lambda: F.selu(torch.tensor([1, 2])), NotImplementedError, "\"elu_cpu\" not implemented for 'Long'"),
    (lambda: F.celu(torch.ones(2), 0.0), RuntimeError, "ZeroDivisionError: alpha cannot be 0 for CELU"),
    (lambda: nn.Hardtanh(1, 0), AssertionError, "max_val (0) must be greater than min_val (1)"),
    (lambda: F.hardtanh(torch.ones(2, requires_grad=True), inplace=True), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
])
def test_errors_match_torch(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == message


def test_integer_inputs():
    i = torch.tensor([-3, 1, 9])
    assert str(F.relu6(i)) == "tensor([0, 1, 6])"
    assert str(F.threshold(i, 1, 5)) == "tensor([5, 5, 9])"
    assert str(F.softsign(i)) == "tensor([-0.7500,  0.5000,  0.9000])"


def test_elu_and_leaky_relu_in_place_save_their_result():
    x = _x()
    y = x * 1
    F.elu(y, 0.5, inplace=True)
    assert (y.grad_fn.name(), y.grad_fn._saved_alpha, y.grad_fn._saved_scale) == ("EluBackward1", 0.5, 1)
    assert y.grad_fn._saved_result is y or np.array_equal(y.grad_fn._saved_result.detach().numpy(), y.detach().numpy())
    (g,) = torch.autograd.grad(y.sum(), x)
    assert g.tolist() == [0.009157806634902954, 0.11156508326530457, 0.3894003927707672, 0.5, 1.0, 1.0, 1.0, 1.0]
    y = x * 1
    F.leaky_relu(y, 0.2, inplace=True)
    assert (y.grad_fn.name(), y.grad_fn._saved_negative_slope) == ("LeakyReluBackward1", 0.2)


def test_softmax2d_and_the_functional_inplace_names():
    m = nn.Softmax2d()
    assert repr(m) == "Softmax2d()"
    x = torch.arange(8.0).reshape(2, 2, 2).requires_grad_()
    y = m(x)
    assert y.grad_fn.name() == "SoftmaxBackward0"
    assert y[:, 0, 0].tolist() == [0.01798621006309986, 0.9820137619972229]
    with pytest.raises(ValueError, match="^Softmax2d: expected input to be 3D or 4D, got 2D instead$"):
        m(torch.ones(2, 2))
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    y = x * 1
    assert F.elu_(y) is y and y.grad_fn.name() == "EluBackward1"
    y = x * 1
    F.leaky_relu_(y, 0.1)
    assert (y.grad_fn.name(), y.grad_fn._saved_negative_slope) == ("LeakyReluBackward1", 0.1)
