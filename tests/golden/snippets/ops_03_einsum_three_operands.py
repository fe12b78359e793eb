# einsum with three or more operands: PyTorch 2.13 (opt_einsum not installed) contracts left to right,
# each pair by permute-reshape-bmm-view-permute, multiplying right by left when that keeps the
# output's dim order; the grad_fn chain shows which.
import torch


def walk(fn, limit=40):
    out, seen, stack = [], set(), [fn]
    while stack and len(out) < limit:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        out.append(f.name())
        stack.extend(reversed([n for n, _ in f.next_functions]))
    return out


print(torch.backends.opt_einsum.enabled, torch.backends.opt_einsum.is_available())
cases = [
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("ijk,ikl,j->il", [(2, 3, 4), (2, 4, 5), (3,)]),
    ("jk,ik->ij", [(2, 3), (4, 3)]),
    ("bij,bjk,bkl->bil", [(2, 2, 3), (2, 3, 4), (2, 4, 2)]),
    ("i,i,i->", [(5,), (5,), (5,)]),
    ("a,ab,bc,c->", [(3,), (3, 4), (4, 5), (5,)]),
    ("ab,bc,cd,de->ae", [(2, 3), (3, 4), (4, 2), (2, 3)]),
    ("ii,ij,jk->k", [(3, 3), (3, 4), (4, 2)]),
    ("abc,cd,b->ad", [(2, 3, 4), (4, 5), (3,)]),
    ("edf,aec->acfd", [(6, 5, 1), (2, 6, 4)]),
    ("dbae,ebf->efda", [(5, 3, 2, 6), (6, 3, 1)]),
    ("...ij,jk,k->...i", [(2, 2, 3), (3, 4), (4,)]),
]
for eq, shapes in cases:
    xs = [torch.linspace(-1.5, 2.0, torch.Size(s).numel()).reshape(s).requires_grad_() for s in shapes]
    out = torch.einsum(eq, *xs)
    print(eq, out, walk(out.grad_fn))
    print(" ", [g for g in torch.autograd.grad(out.sum(), xs)])
