import warnings

import torch
import torch.autograd.forward_ad as fwAD

warnings.filterwarnings("ignore", category=DeprecationWarning)

x = torch.tensor([1.0, 2.0, 3.0])
t = torch.tensor([10.0, 20.0, 30.0])

with fwAD.dual_level():
    d = fwAD.make_dual(x, t)
    # writing a dual value into a view of a plain tensor gives the base a tangent, zero elsewhere
    b = torch.zeros(4)
    w = b[:2]
    b[1:].copy_(d)
    print("base:", fwAD.unpack_dual(b).tangent, "older view:", fwAD.unpack_dual(w).tangent)
    c = torch.zeros(2, 3)
    r = c[1]
    r[0] = d[1]
    print("c:", fwAD.unpack_dual(c).tangent)
    print("r:", fwAD.unpack_dual(r).tangent)
    print("c.t():", fwAD.unpack_dual(c.t()).tangent)
    # the base's tangent and the views' are one memory
    fwAD.unpack_dual(c).tangent[1, 2] = 99.0
    print("r after writing c's tangent:", fwAD.unpack_dual(r).tangent)
    # in-place on a view of a dual tensor updates the base's tangent
    h = d.clone()
    hv = h[0:2]
    hv.mul_(d[1:])
    print("h:", fwAD.unpack_dual(h))
    h2 = d.clone().view(3, 1)
    h2[2].add_(d[0])
    print("h2:", fwAD.unpack_dual(h2).tangent.flatten())
    # in-place on the base of older views: their tangents follow
    i = torch.zeros(3)
    ia, ib = i[:], i[1:]
    i.add_(d)
    print("i views:", fwAD.unpack_dual(ia).tangent, fwAD.unpack_dual(ib).tangent)
    # a view with a plain value written: its part of the tangent becomes zero
    j = d.clone()
    j[1:] = torch.tensor([0.0, 0.0])
    print("j:", fwAD.unpack_dual(j))
    j = d.clone()
    j[0] = 5.0
    print("j[0] = 5:", fwAD.unpack_dual(j).tangent)
    k = torch.zeros(2, 3)
    k[:, 1] = d[:2]
    k[0] = d
    print("k:", fwAD.unpack_dual(k).tangent)
    # advanced-index writes
    e = d.clone()
    e[torch.tensor([0, 2])] = torch.tensor([7.0, 8.0])
    print("e[idx] = plain:", fwAD.unpack_dual(e).tangent)
    f = torch.zeros(3)
    f[torch.tensor([0, 2])] = d[:2]
    print("f[idx] = dual:", fwAD.unpack_dual(f).tangent)
    g = torch.zeros(3)
    g[torch.tensor([True, False, True])] = d[2]
    print("g[mask] = dual:", fwAD.unpack_dual(g).tangent)
    m = torch.zeros(2, 3)
    m[1, torch.tensor([2, 0])] = d[1:]
    print("m[1, idx] = dual:", fwAD.unpack_dual(m).tangent)
    # unpack_dual's primal carries no tangent, nor its views
    p = fwAD.unpack_dual(d).primal
    print("primal:", fwAD.unpack_dual(p).tangent, fwAD.unpack_dual(p[0:2]).tangent)
