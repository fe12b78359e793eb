# Elementwise math from a calculus notebook: values, derivatives and grad_fn names
import math

import torch

x = torch.tensor([-0.9, -0.3, 0.0, 0.2, 0.75], requires_grad=True)
for name in ["erf", "erfc", "expm1", "sinh", "cosh", "asin", "acos", "atan", "asinh", "atanh"]:
    y = getattr(torch, name)(x)
    (dy,) = torch.autograd.grad(y.sum(), x)
    print(f"{name:6s}", y.grad_fn.name(), y.detach(), dy)

p = torch.tensor([0.3, 1.0, 2.5, 10.0], requires_grad=True)
for name in ["log2", "log10", "rsqrt", "acosh"]:
    y = getattr(p, name)()
    (dy,) = torch.autograd.grad(y.sum(), p)
    print(f"{name:6s}", y, dy)

# arc* names are aliases with the same nodes
print(torch.arcsin(torch.tensor(0.5, requires_grad=True)), torch.arctanh(torch.tensor(0.5)).item())

# logit and its clamped form
q = torch.tensor([0.0, 0.1, 0.5, 0.9, 1.0], requires_grad=True)
y = torch.logit(q)
y.sum().backward()
print(y, q.grad)
q.grad = None
y = q.logit(eps=0.2)
y.sum().backward()
print(y, q.grad, y.grad_fn._saved_eps)

# entropy with xlogy: 0 * log(0) counts as 0
probs = torch.tensor([0.0, 0.25, 0.75], requires_grad=True)
entropy = -torch.xlogy(probs, probs).sum()
entropy.backward()
print(entropy, probs.grad, entropy.grad_fn.next_functions[0][0].name())
print(torch.xlogy(probs, 2.0), torch.xlogy(2, probs + 1))
print(math.isclose(torch.erf(torch.tensor(1.0)).item(), math.erf(1.0), rel_tol=1e-6))

# second derivatives and in-place forms
t = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
(g,) = torch.autograd.grad(torch.erf(t).sum(), t, create_graph=True)
(gg,) = torch.autograd.grad(g.sum(), t)
print(g, gg)
u = t * 1
u.expm1_()
print(u, u.grad_fn.name())
torch.xlogy(2.0, 3.0)
