import warnings

import torch
import torch.autograd.forward_ad as fwAD

warnings.filterwarnings("ignore", category=DeprecationWarning)

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
v = torch.tensor([[1.0, 10.0, 100.0], [-1.0, -10.0, -100.0]])
y = torch.tensor([7.0, 8.0, 9.0])

with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    e = fwAD.make_dual(y, torch.tensor([0.5, 0.25, 0.125]))
    idx = torch.tensor([2, 0, 2])
    print("d[idx]:", fwAD.unpack_dual(d[:, idx]).tangent)
    print("d[[1, 0], [2, 2]]:", fwAD.unpack_dual(d[[1, 0], [2, 2]]).tangent)
    print("d[d > 2]:", fwAD.unpack_dual(d[d > 2]).tangent)
    print("index_select:", fwAD.unpack_dual(d.index_select(1, idx)).tangent)
    print("masked_select:", fwAD.unpack_dual(torch.masked_select(d, x > 3)).tangent)
    print("masked_fill:", fwAD.unpack_dual(d.masked_fill(x > 3, 0.0)).tangent)
    print("masked_fill dual value:", fwAD.unpack_dual(d.masked_fill(x > 3, e[0])).tangent)
    print("index_add:", fwAD.unpack_dual(d.index_add(1, idx, torch.ones(2, 3), alpha=2)).tangent)
    print("index_add dual source:", fwAD.unpack_dual(torch.zeros(3).index_add(0, idx, e)).tangent)
    print("index_add both:", fwAD.unpack_dual(d[0].index_add(0, idx, e, alpha=3)).tangent)
    print("cat:", fwAD.unpack_dual(torch.cat([d, e.unsqueeze(0), torch.zeros(1, 3)])).tangent)
    print("cat dim 1:", fwAD.unpack_dual(torch.cat([torch.ones(2, 1), d], dim=1)).tangent)
    print("stack:", fwAD.unpack_dual(torch.stack([e, y, e], dim=1)).tangent)
    print("repeat:", fwAD.unpack_dual(e.repeat(2, 2)).tangent)
    print("flip:", fwAD.unpack_dual(d.flip(0, 1)).tangent)
    print("flip dims=[1]:", fwAD.unpack_dual(torch.flip(d, [1])).tangent)
    print("gather:", fwAD.unpack_dual(d.gather(1, torch.tensor([[0, 0], [2, 1]]))).tangent)
    print("broadcast_to:", fwAD.unpack_dual(torch.broadcast_to(e, (2, 3))).tangent)
    z = torch.cat([d, d]).sum(0)
    print("cat then sum:", fwAD.unpack_dual(z))
