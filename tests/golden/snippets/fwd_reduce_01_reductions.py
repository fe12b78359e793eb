import warnings

import torch
import torch.autograd.forward_ad as fwAD

# PyTorch's first make_dual loads its jvp decompositions, whose torch.jit.script calls each warn
# that jit.script is deprecated; not what this snippet is about.
warnings.filterwarnings("ignore", category=DeprecationWarning)

x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]])
v = torch.tensor([[1.0, 0.0, -1.0], [2.0, 0.5, 1.0]])

with fwAD.dual_level():
    dx = fwAD.make_dual(x, v)
    for name, f in [("sum", lambda a: a.sum()),
                    ("sum(1)", lambda a: a.sum(1)),
                    ("sum(0, keepdim)", lambda a: a.sum(0, keepdim=True)),
                    ("mean", lambda a: a.mean()),
                    ("mean(1)", lambda a: a.mean(1)),
                    ("prod", lambda a: a.prod()),
                    ("prod(1)", lambda a: a.prod(1)),
                    ("max", lambda a: a.max()),
                    ("min", lambda a: a.min()),
                    ("max(1).values", lambda a: a.max(1).values),
                    ("min(0, keepdim).values", lambda a: a.min(0, keepdim=True).values),
                    ("amax(1)", lambda a: a.amax(1)),
                    ("amin", lambda a: a.amin()),
                    ("var", lambda a: a.var()),
                    ("var(1)", lambda a: a.var(1)),
                    ("var(0, correction=0)", lambda a: a.var(0, correction=0)),
                    ("std", lambda a: a.std()),
                    ("std(1, keepdim)", lambda a: a.std(1, keepdim=True)),
                    ("norm", lambda a: a.norm()),
                    ("norm(p=1, dim=1)", lambda a: a.norm(p=1, dim=1)),
                    ("norm(p=3)", lambda a: a.norm(p=3)),
                    ("norm(inf, dim=0)", lambda a: a.norm(p=float("inf"), dim=0)),
                    ("logsumexp(1)", lambda a: a.logsumexp(1))]:
        out = f(dx)
        p, t = fwAD.unpack_dual(out)
        print(name, p, t)
    mx = dx.max(1)
    print("indices have no tangent:", fwAD.unpack_dual(mx.indices).tangent)
    print("grad_fn:", mx.values.grad_fn)
