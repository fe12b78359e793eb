import torch

# prod's backward without a graph: a size-1 slice hands the gradient itself on (a view for the
# full product), several zeros give zeros_like, one zero the product of the others, contiguous.
for vals in ([0.0, 2.0, 3.0], [0.0, 0.0, 3.0], [0.0], [[0.0, 2.0], [3.0, 0.0]], [[0.0], [2.0]]):
    for name, f in [("prod", lambda v: v.prod()), ("prod(0)", lambda v: v.prod(0).sum()),
                    ("twice", lambda v: v.prod() + v.prod()), ("p * p", lambda v: (lambda p: p * p)(v.prod())),
                    ("prod(-1) + sum", lambda v: v.prod(-1).sum() + v.sum())]:
        v = torch.tensor(vals, requires_grad=True)
        g, = torch.autograd.grad(f(v), [v])
        w = torch.tensor(vals, requires_grad=True)
        f(w).backward()
        print(vals, name, g._version, g.tolist(), w.grad._version)
# Second order through them: versions of the second gradient.
for name, f in [("p[None] * p[None]", lambda v: (v.prod()[None] * v.prod()[None]).sum()),
                ("p * p", lambda v: (lambda p: (p * p).sum())(v.prod()[None]))]:
    v = torch.zeros(1, requires_grad=True)
    g, = torch.autograd.grad(f(v), [v], create_graph=True)
    gg, = torch.autograd.grad(g.sum(), [v])
    print(name, g._version, gg._version)
# LerpBackward1 computes end's formula, then self's, then weight's (name order).
a = torch.tensor([[-1.231, 0.561, 0.89], [-0.093, -0.063, -0.309]], requires_grad=True)
b = torch.tensor([[-1.215, 0.0, 1.567], [0.568, 0.983, -1.737]], requires_grad=True)
w = torch.tensor([-0.255, -0.393, 0.755], requires_grad=True)
y = torch.add(torch.lerp(a, b, w), torch.arange(3.0), alpha=2)
gs = torch.autograd.grad((y * y).sum(), [a, b, w], create_graph=True)
gg = torch.autograd.grad(sum(g.sum() for g in gs), [a, b, w])
print([g._version for g in gs], [g._version for g in gg])
