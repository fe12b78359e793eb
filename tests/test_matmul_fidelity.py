"""Matrix products read as PyTorch's: values down to the sign of zero, and the nodes matmul records."""
import math

import numpy as np
import pytest

import autograd_py as torch


def test_dot_of_a_negative_zero_product_is_positive_zero():
    # PyTorch's dot sums from +0, so -0.9 * 0.0 comes out 0.0 and sqrt's gradient is +inf, not -inf.
    a = torch.tensor([-0.9], requires_grad=True)
    b = torch.tensor([0.0], requires_grad=True)
    for out in (torch.dot(a, b), torch.matmul(a, b), a @ b):
        assert math.copysign(1.0, out.item()) == 1.0
    torch.dot(a, b).sqrt().backward()
    assert b.grad.tolist() == [-math.inf]


# (a's shape, b's shape, a requires grad, b requires grad, out shape, grad_fn chain along the first edge),
# read off PyTorch 2.13: LinearAlgebra.cpp's _matmul_impl folds into mm/mv or expands into one bmm.
MATMUL_CHAINS = [
    ((2, 3, 4), (4,), True, False, (2, 3), ["UnsafeViewBackward0", "MvBackward0", "ViewBackward0"]),
    ((2, 3, 4), (4,), False, True, (2, 3), ["UnsafeViewBackward0", "MvBackward0"]),
    ((3,), (2, 3, 4), True, True, (2, 4),
     ["UnsafeViewBackward0", "MvBackward0", "UnsafeViewBackward0", "CloneBackward0", "TransposeBackward0"]),
    ((3, 4), (2, 4, 5), True, False, (2, 3, 5),
     ["CloneBackward0", "TransposeBackward0", "UnsafeViewBackward0", "MmBackward0", "TBackward0"]),
    ((3, 4), (2, 4, 5), False, True, (2, 3, 5),
     ["UnsafeViewBackward0", "BmmBackward0", "ViewBackward0", "ExpandBackward0"]),
    ((2, 3, 4), (4, 5), False, True, (2, 3, 5), ["UnsafeViewBackward0", "MmBackward0"]),
    ((1, 3, 4), (2, 4, 5), True, False, (2, 3, 5),
     ["CloneBackward0", "TransposeBackward0", "UnsafeViewBackward0", "MmBackward0", "TBackward0",
      "SqueezeBackward1"]),
    ((2, 3, 4), (1, 4, 5), False, True, (2, 3, 5), ["UnsafeViewBackward0", "MmBackward0", "SqueezeBackward1"]),
    ((2, 1, 3, 4), (5, 4, 2), True, True, (2, 5, 3, 2),
     ["UnsafeViewBackward0", "BmmBackward0", "UnsafeViewBackward0", "CloneBackward0", "ExpandBackward0"]),
]


def _chain(t):
    out, fn = [], t.grad_fn
    while fn is not None:
        out.append(fn.name())
        nxt = [f for f, _ in fn.next_functions if f is not None and f.name() != "torch::autograd::AccumulateGrad"]
        fn = nxt[0] if nxt else None
    return out


@pytest.mark.parametrize("sa, sb, ra, rb, shape, chain", MATMUL_CHAINS)
def test_matmul_records_pytorchs_decomposition(sa, sb, ra, rb, shape, chain):
    g = torch.Generator().manual_seed(0)
    a = torch.randn(sa, generator=g, dtype=torch.float64).requires_grad_(ra)
    b = torch.randn(sb, generator=g, dtype=torch.float64).requires_grad_(rb)
    out = torch.matmul(a, b)
    assert (tuple(out.shape), _chain(out)) == (shape, chain)
    assert np.allclose(out.detach().numpy(), np.matmul(a.detach().numpy(), b.detach().numpy()))
    assert torch.autograd.gradcheck(torch.matmul, (a, b))


def test_matmul_of_unfoldable_batch_expands_into_bmm():
    # Leading dims that cannot be viewed as rows (and a small operand without grad): bmm, not a copying fold.
    a = torch.randn(3, 2, 4, dtype=torch.float64).transpose(0, 1).requires_grad_()
    out = torch.matmul(a, torch.randn(4, 2, dtype=torch.float64))
    assert _chain(out) == ["UnsafeViewBackward0", "BmmBackward0", "ReshapeAliasBackward0", "ExpandBackward0"]


def test_unsafe_view_is_one_node_for_matmul_and_reshape_as_pytorchs():
    # PyTorch 2.13: both end in UnsafeViewBackward0 showing _saved_self_sym_sizes, (6, 5) and (3, 2);
    # the result is no view, so an in-place op on it records plainly and backward runs through it.
    a = torch.ones(2, 3, 4, requires_grad=True)
    x = torch.arange(6.).reshape(2, 3).requires_grad_()
    m, r = a @ torch.ones(4, 5), x.t().reshape(6)
    assert type(m.grad_fn) is type(r.grad_fn)
    assert (m.grad_fn.name(), m.grad_fn._saved_self_sym_sizes, r.grad_fn._saved_self_sym_sizes) == (
        "UnsafeViewBackward0", (6, 5), (3, 2))
    assert m._base is None and r._base is None
    m.mul_(2), r.mul_(2)
    assert (m.grad_fn.name(), r.grad_fn.name(), m._version, r._version) == ("MulBackward0", "MulBackward0", 1, 1)
    (m.sum() + r.sum()).backward()
    assert a.grad.tolist() == np.full((2, 3, 4), 10.0).tolist() and x.grad.tolist() == [[2.0] * 3] * 2
