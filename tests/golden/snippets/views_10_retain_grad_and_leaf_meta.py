# retain_grad follows a tensor to its new grad_fn (an in-place op on it, or its view regenerated after
# a write to the base); a leaf reshaped in place after it was first used still gets gradients checked
# against the shape it had then (its AccumulateGrad's input metadata).
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.retain_grad()
y.mul_(3)
(y * y).sum().backward()
print(y.grad, x.grad)
v0 = torch.tensor([[0.72]], dtype=torch.float64, requires_grad=True)
v3 = v0.expand(2, 3)
v3.retain_grad()
with torch.no_grad():
    v0.clamp_(-1, 1)
(v3.select(-1, 1) * 2).exp().sum().backward()
print(v3.grad, v0.grad)
b = x * 1
w = b[1:]
w.retain_grad()
b.add_(1)
(w * w).sum().backward()
print(w.grad)
v0 = torch.tensor([[2.19, -2.11], [-2.49, -2.17]], dtype=torch.float64, requires_grad=True)
v1 = v0[[-2, 1], [-2, 1]]
with torch.no_grad():
    v0.unsqueeze_(0)
v4 = v0.sum()
(g,) = torch.autograd.grad((v4 * v4).sum(), [v0], create_graph=True)
print(tuple(g.shape), type(g.grad_fn).__name__, [type(f).__name__ for f, _ in g.grad_fn.next_functions])
