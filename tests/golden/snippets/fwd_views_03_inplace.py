import warnings

import torch
import torch.autograd.forward_ad as fwAD

warnings.filterwarnings("ignore", category=DeprecationWarning)

x = torch.tensor([1.0, 2.0, 3.0])
t = torch.tensor([10.0, 20.0, 30.0])

with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    # an in-place op with a dual operand makes a plain tensor dual
    a = torch.ones(3)
    a.mul_(d)
    print("a.mul_(d):", fwAD.unpack_dual(a))
    ta = fwAD.unpack_dual(a).tangent
    v = a[1:]
    a.mul_(2)
    # the tangent is updated in place: the same tensor, and the view's tangent sees it
    print("same tangent:", fwAD.unpack_dual(a).tangent is ta, "view's:", fwAD.unpack_dual(v).tangent)
    a.add_(d, alpha=-1)
    print("add_ alpha:", fwAD.unpack_dual(a).tangent, ta)
    a.div_(torch.tensor([2.0, 4.0, 8.0]))
    print("div_ plain:", fwAD.unpack_dual(a).tangent)
    a.pow_(2)
    print("pow_:", fwAD.unpack_dual(a))
    # a clone's tangent is its own: writing it leaves d's alone
    c = d.clone()
    c.mul_(3)
    print("clone mul_:", fwAD.unpack_dual(c).tangent, fwAD.unpack_dual(d).tangent)
    c = d + 0
    c.sub_(1)
    c.exp_()
    print("exp_:", fwAD.unpack_dual(c).tangent, fwAD.unpack_dual(d).tangent)
    # zero_, fill_ and copy_
    e = d.clone()
    e.zero_()
    print("zero_:", fwAD.unpack_dual(e))
    e = d.clone()
    e.fill_(3.0)
    print("fill_:", fwAD.unpack_dual(e))
    e = torch.zeros(3)
    e.fill_(d[1])
    print("fill_ dual value:", fwAD.unpack_dual(e))
    e = torch.zeros(3)
    e.copy_(d)
    e.mul_(2)
    print("copy_ then mul_:", fwAD.unpack_dual(e).tangent, fwAD.unpack_dual(d).tangent)
    e = d.clone()
    e.copy_(torch.tensor([5.0, 6.0, 7.0]))
    print("copy_ plain:", fwAD.unpack_dual(e))
    e = torch.zeros(2, 3)
    e.copy_(d)
    print("copy_ broadcast:", fwAD.unpack_dual(e).tangent)
    e = torch.zeros(3, dtype=torch.float64)
    e.copy_(d)
    print("copy_ cast:", fwAD.unpack_dual(e).tangent)
    e = torch.zeros(3, dtype=torch.long)
    e.copy_(d)
    print("copy_ into long:", fwAD.unpack_dual(e))
    # detach_, detach() and .data drop the tangent
    e = d.clone()
    print("detach():", fwAD.unpack_dual(e.detach()).tangent, "data:", fwAD.unpack_dual(e.data).tangent)
    e.detach_()
    print("detach_():", fwAD.unpack_dual(e))
    # masked_fill_ and index_add_
    m = torch.zeros(3)
    m.masked_fill_(torch.tensor([True, False, True]), d[0])
    print("masked_fill_:", fwAD.unpack_dual(m).tangent)
    n = d.clone()
    n.index_add_(0, torch.tensor([0, 0]), d[:2])
    print("index_add_:", fwAD.unpack_dual(n).tangent)
    n.clamp_(min=15.0)
    print("clamp_:", fwAD.unpack_dual(n))
    # in-place view ops reshape the tangent too
    g = d.clone()
    g.unsqueeze_(0)
    print("unsqueeze_:", fwAD.unpack_dual(g).tangent)
    g.t_()
    print("t_:", fwAD.unpack_dual(g).tangent)
    g.squeeze_()
    print("squeeze_:", fwAD.unpack_dual(g).tangent)
    f = torch.zeros(3, dtype=torch.float64)
    f.copy_(d)
    f.copy_(d * 2)
    print("copy_ twice into float64:", fwAD.unpack_dual(f).tangent.dtype, fwAD.unpack_dual(f).tangent)
    f = fwAD.make_dual(torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64))
    f.copy_(d)
    print("copy_ into a float64 dual:", fwAD.unpack_dual(f).tangent)
