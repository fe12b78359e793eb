# Forward-over-reverse: a tangent that requires grad records the ops of derivatives.yaml's formula,
# so its grad_fn chain names them (a missing tangent counts as a zero tensor: x * 3 adds a zero term).
import torch

fwAD = torch.autograd.forward_ad


def names(fn, depth=3):
    out, level = [], [fn]
    for _ in range(depth):
        out.append([f.name() if f is not None else None for f in level])
        level = [n for f in level if f is not None for n, _ in f.next_functions if n is not None]
        if not level:
            break
    return out


cases = [
    ("x.sum()", lambda x, y: x.sum()),
    ("x.mean()", lambda x, y: x.mean()),
    ("x.sum(1)", lambda x, y: x.sum(1)),
    ("x.sum(dtype=float64)", lambda x, y: x.sum(dtype=torch.float64)),
    ("2 / x", lambda x, y: 2 / x),
    ("x / 4", lambda x, y: x / 4),
    ("x * 3", lambda x, y: x * 3),
    ("3 * x", lambda x, y: 3 * x),
    ("x + 2.5", lambda x, y: x + 2.5),
    ("2.5 + x", lambda x, y: 2.5 + x),
    ("x - 2", lambda x, y: x - 2),
    ("2 - x", lambda x, y: 2 - x),
    ("x - y", lambda x, y: x - y),
    ("x * y", lambda x, y: x * y),
    ("x / y", lambda x, y: x / y),
    ("torch.sub(x, y, alpha=3)", lambda x, y: torch.sub(x, y, alpha=3)),
    ("torch.add(x, y, alpha=2)", lambda x, y: torch.add(x, y, alpha=2)),
    ("x.addcdiv(y, x, value=2)", lambda x, y: x.addcdiv(y, x, value=2)),
    ("torch.addcmul(x, y, x)", lambda x, y: torch.addcmul(x, y, x)),
    ("x.max()", lambda x, y: x.max()),
    ("x.min()", lambda x, y: x.min()),
    ("torch.diag(x)", lambda x, y: torch.diag(x)),
    ("x.t().reshape(-1)", lambda x, y: x.t().reshape(-1)),
    ("x[0] @ y.t()", lambda x, y: x[0] @ y.t()),
]
p = torch.tensor([[1.5, -2.0, 0.5], [0.25, 3.0, -1.0]])
for primal_grad in (False, True):
    for text, f in cases:
        with fwAD.dual_level():
            x = fwAD.make_dual(p.clone().requires_grad_(primal_grad), torch.full((2, 3), 0.5, requires_grad=True))
            y = fwAD.make_dual(p.flip(0) + 4, torch.ones(2, 3, requires_grad=True)) if "y" in text else p.flip(0) + 4
            t = fwAD.unpack_dual(f(x, y)).tangent
            print(primal_grad, text, t, names(t.grad_fn))
with fwAD.dual_level():
    x = fwAD.make_dual(p, torch.full((2, 3), 0.5, requires_grad=True))
    print([names(fwAD.unpack_dual(o).tangent.grad_fn, 1) for o in x.split(1)])
    print([names(fwAD.unpack_dual(o).tangent.grad_fn, 1) for o in x.chunk(2, 1)])
    print([names(fwAD.unpack_dual(o).tangent.grad_fn, 1) for o in x.unbind(1)])
    print([names(fwAD.unpack_dual(o).tangent.grad_fn, 1) for o in torch.split(x, [1, 2], 1)])
    # a missing tangent is a zero: an infinite primal still gives 0, and -0.0 stays
    z = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([-0.0, 1.0], requires_grad=True))
    for o in (z * torch.tensor([float('inf'), 1.0]), z + 1, 1 - z, z - torch.tensor([1.0, 2.0])):
        print(fwAD.unpack_dual(o).tangent)
    # an in-place view op on a dual changes its tangent by the same op
    d = fwAD.make_dual(torch.ones(1, 3), torch.ones(1, 3, requires_grad=True)).clone()
    d.squeeze_(0)
    print(names(fwAD.unpack_dual(d).tangent.grad_fn, 2))
    try:
        fwAD.make_dual(torch.ones(1, 3), torch.ones(1, 3, requires_grad=True)).unsqueeze_(0)
    except RuntimeError as e:
        print(type(e).__name__, e)
