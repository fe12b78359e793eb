import torch

# PowBackward1 computes the exponent's formula before self's (name order), so in a second backward
# the self formula's newer nodes run first: a view summed out of a broadcast arrives first at x
# and is not added into in place (version 2, not 3). pow_backward_self's exponent - 1 is sub.Scalar.
x = torch.tensor([0.85, 2.44, 2.71], requires_grad=True)
c = torch.tensor([[0.5, 1.5, 2.0], [1.0, 0.3, 0.2]])
for name, f in [("c * x", lambda x: (x ** (c * x)).sum()),
                ("logsumexp", lambda x: (x ** (torch.tensor([[[1, 3, 3]], [[1, 2, 1]]]) ** x).logsumexp(2)).sum()),
                ("exp", lambda x: (x ** x.exp()).sum())]:
    g, = torch.autograd.grad(f(x), [x], create_graph=True)
    gg, = torch.autograd.grad(g.sum(), [x])
    print(name, g._version, gg._version)
g, = torch.autograd.grad((x ** (c * x)).sum(), [x], create_graph=True)
seen, stack = set(), [g.grad_fn]
while stack:
    node = stack.pop()
    if node is not None and node not in seen:
        seen.add(node)
        stack.extend(f for f, _ in node.next_functions)
print(sorted(n.name() for n in seen))
