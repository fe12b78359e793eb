"""Matrix products read as PyTorch's: values down to the sign of zero, and the nodes matmul records."""
import math

import autograd_py as torch


def test_dot_of_a_negative_zero_product_is_positive_zero():
    # PyTorch's dot sums from +0, so -0.9 * 0.0 comes out 0.0 and sqrt's gradient is +inf, not -inf.
    a = torch.tensor([-0.9], requires_grad=True)
    b = torch.tensor([0.0], requires_grad=True)
    for out in (torch.dot(a, b), torch.matmul(a, b), a @ b):
        assert math.copysign(1.0, out.item()) == 1.0
    torch.dot(a, b).sqrt().backward()
    assert b.grad.tolist() == [-math.inf]
