"""float32 results rounded as PyTorch's CPU kernels round them: bit-exact, because a one-ulp
difference grows into a wrong value through tan, exp or a large power (difftest programs 31:7532,
31:2081). Each expectation was read off real PyTorch 2.13."""
import autograd_py as torch


def test_float32_power_is_rounded_once_from_double_as_powf():
    x = torch.tensor([[2.0, 2.79], [-1.97, 1.81]]) * 2
    p = x.abs() ** x
    assert p.tolist() == [[256.0, 14662.861328125], [0.004505518823862076, 105.32341003417969]]
    assert p.tan().tolist()[0][1] == 1.7369261980056763  # NumPy's float32 power gave 14662.8623: tan 1.7409
    assert (3 ** torch.tensor([3.5715191, 0.872868])).tolist() == [50.58802032470703, 2.608938694000244]
    assert torch.tensor([1.5, 0.25], dtype=torch.float64).pow(2.7).dtype == torch.float64


def test_float32_var_and_std_accumulate_in_double_as_welford():
    v = torch.tensor([[1.808, -1.94, -0.489], [-0.161, -1.403, 0.427]])
    assert torch.var(v, 1).tolist() == [3.571519136428833, 0.872868001461029]  # float32 NumPy: 3.5715189
    assert torch.std(v, 1).tolist() == [1.8898463249206543, 0.9342740178108215]
    assert v.var().item() == 1.7866300344467163 and v.var().dtype == torch.float32
    assert v.std(0).tolist() == [1.3922932147979736, 0.3797163963317871, 0.6477097868919373]


def test_mul_and_div_backward_build_others_gradient_first_as_the_generated_nodes():
    # Name order (other, then self) sets the double-backward nodes' sequence numbers, hence the
    # engine's order and the order float32 gradients are summed in (program 406:107).
    x = torch.tensor(0.5, requires_grad=True)
    y = torch.tensor(1.5, requires_grad=True)
    for out in (x * y, x / y):
        gx, gy = torch.autograd.grad(out, [x, y], create_graph=True)
        assert gy.grad_fn._sequence_nr() < gx.grad_fn._sequence_nr()
    v2 = torch.tensor(0.032, requires_grad=True)
    v6 = v2 / torch.tan(v2)
    g, = torch.autograd.grad(v6 * v6, [v2], create_graph=True)
    assert g.item() == -0.042659759521484375
    assert torch.autograd.grad(g, [v2])[0].item() == -1.3323974609375  # float64 says -1.33251
