import torch


def names(g):
    return g.grad_fn.name(), [n[0] and n[0].name() for n in g.grad_fn.next_functions]


# a view made under no_grad has no edge: addcmul saves nothing of it, so modifying it is fine
v0 = torch.tensor([2.0, 1.26, -0.58], dtype=torch.float64, requires_grad=True)
v2 = torch.zeros(1, 1, dtype=torch.float64, requires_grad=True)
with torch.no_grad():
    v9 = v0.transpose(0, -1)
v10 = v2.addcmul(v9, v9, value=0.5)
print(v10.grad_fn.next_functions[1:], v10.grad_fn._saved_tensor1)
with torch.no_grad():
    v9[[-3, 1, -2]] = 0.5
v10.backward(torch.full_like(v10, 0.5))
print(v2.grad)
# alpha, tan, div and rsub double-backward graphs
a = torch.tensor([0.5, -0.66, 1.29], requires_grad=True)
b = torch.tensor([1.5, 0.66, 2.29], requires_grad=True)
for f in (lambda: a.tan(), lambda: torch.add(a, b, alpha=2), lambda: torch.sub(a, b, alpha=2),
          lambda: torch.rsub(a, b, alpha=3), lambda: a.addcdiv(b, b, value=2), lambda: b / a):
    y = f()
    gs = torch.autograd.grad((y * y).sum(), [a, b], create_graph=True, allow_unused=True)
    print([(g, names(g)) if g is not None else None for g in gs])
