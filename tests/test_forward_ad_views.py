"""Forward mode through views and in-place ops: where tangents live and how writes reach them.

Expected values were recorded from torch 2.13.0 (the same programs run there; see also the
golden snippets ``fwd_views_*``).
"""
import numpy as np
import pytest

import autograd_py as torch
import autograd_py.autograd.forward_ad as fwAD
from autograd_py.func import hessian, jacfwd, jvp


def tangent(t):
    return fwAD.unpack_dual(t).tangent


@pytest.fixture
def level():
    with fwAD.dual_level():
        yield


@pytest.fixture
def d(level):
    return fwAD.make_dual(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([10.0, 20.0, 30.0]))


def test_view_tangent_is_a_view_of_the_tangent(level):
    d = fwAD.make_dual(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), torch.zeros(2, 3))
    col = d[:, 2]
    assert tangent(col).stride() == (3,)
    tangent(d)[1, 2] = 7.0  # written through the base's tangent, seen by the view's
    assert tangent(col).tolist() == [0.0, 7.0]
    tangent(d.t())[0, 0] = 5.0  # and the other way
    assert tangent(d)[0, 0].item() == 5.0
    assert [tangent(p).tolist() for p in d.unbind(1)] == [[5.0, 0.0], [0.0, 0.0], [0.0, 7.0]]


def test_inplace_updates_the_tangent_in_place(d):
    a = torch.ones(3)
    a.mul_(d)
    ta = tangent(a)
    v = a[1:]
    a.mul_(2)
    assert tangent(a) is ta  # torch: True
    assert tangent(v).tolist() == [40.0, 60.0]
    a.add_(d, alpha=-1)
    assert ta.tolist() == [10.0, 20.0, 30.0]


def test_clone_tangent_is_not_shared(d):
    c = d.clone()
    c.mul_(3)
    c2 = d + 0
    c2.exp_()
    assert tangent(c).tolist() == [30.0, 60.0, 90.0]
    assert tangent(d).tolist() == [10.0, 20.0, 30.0]
    e = torch.zeros(3)
    e.copy_(d)
    e.mul_(2)
    assert tangent(d).tolist() == [10.0, 20.0, 30.0]


def test_write_into_view_of_plain_base(d):
    b = torch.zeros(4)
    older = b[:2]
    b[1:].copy_(d)
    assert tangent(b).tolist() == [0.0, 10.0, 20.0, 30.0]
    assert tangent(older).tolist() == [0.0, 10.0]
    c = torch.zeros(2, 3)
    r = c[1]
    r[0] = d[1]
    assert tangent(c).tolist() == [[0.0, 0.0, 0.0], [20.0, 0.0, 0.0]]
    assert tangent(r).tolist() == [20.0, 0.0, 0.0]
    assert np.shares_memory(tangent(r)._data, tangent(c)._data)


def test_inplace_on_dual_view_updates_base(d):
    h = d.clone()
    h[0:2].mul_(d[1:])
    assert tangent(h).tolist() == [40.0, 120.0, 30.0]
    j = d.clone()
    j[0] = 5.0
    assert tangent(j).tolist() == [0.0, 20.0, 30.0]


def test_advanced_index_writes(d):
    e = d.clone()
    e[torch.tensor([0, 2])] = torch.tensor([7.0, 8.0])
    assert tangent(e).tolist() == [0.0, 20.0, 0.0]
    f = torch.zeros(3)
    f[torch.tensor([0, 2])] = d[:2]
    assert tangent(f).tolist() == [10.0, 0.0, 20.0]
    m = torch.zeros(3)
    m.masked_fill_(torch.tensor([True, False, True]), d[0])
    assert tangent(m).tolist() == [10.0, 0.0, 10.0]
    n = d.clone()
    n.index_add_(0, torch.tensor([0, 0]), d[:2])
    assert tangent(n).tolist() == [40.0, 20.0, 30.0]


def test_fills_detach_and_integer_targets(d):
    e = d.clone()
    e.zero_()
    assert tangent(e).tolist() == [0.0, 0.0, 0.0]
    e = d.clone()
    e.fill_(3.0)
    assert tangent(e).tolist() == [0.0, 0.0, 0.0]
    e = torch.zeros(3)
    e.fill_(d[1])
    assert tangent(e).tolist() == [20.0, 20.0, 20.0]
    e = d.clone()
    assert tangent(e.detach()) is None and tangent(e.data) is None
    e.detach_()
    assert tangent(e) is None
    i = torch.zeros(3, dtype=torch.long)
    i.copy_(d)
    assert tangent(i) is None


def test_copy_keeps_source_dtype_for_a_new_tangent(d):
    f = torch.zeros(3, dtype=torch.float64)
    f.copy_(d)
    assert tangent(f).dtype == torch.float32  # torch: the new tangent is src's
    g = fwAD.make_dual(torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64))
    g.copy_(d)
    assert tangent(g).dtype == torch.float64 and tangent(g).tolist() == [10.0, 20.0, 30.0]


def test_inplace_view_ops_reshape_the_tangent(d):
    g = d.clone()
    g.unsqueeze_(0)
    assert tuple(tangent(g).shape) == (1, 3)
    g.t_()
    assert tangent(g).tolist() == [[10.0], [20.0], [30.0]]


def test_hessian_through_inplace_writes():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0])

    def g(x):
        out = torch.zeros(3)
        out[0] = x[0] * x[1]
        out[1:].copy_(x[2:] ** 2)
        out.mul_(x[:3])
        return out

    # recorded from torch.func.hessian
    assert hessian(g)(x)[0].tolist() == [[4.0, 2.0, 0.0, 0.0], [2.0, 0.0, 0.0, 0.0], [0.0] * 4, [0.0] * 4]
    assert hessian(g)(x)[1, 1:3, 1:3].tolist() == [[0.0, 6.0], [6.0, 4.0]]
    assert jvp(g, (x,), (torch.tensor([1.0, 0.0, 0.0, 1.0]),))[1].tolist() == [4.0, 0.0, 24.0]
    assert jacfwd(g)(x)[2].tolist() == [0.0, 0.0, 16.0, 24.0]
