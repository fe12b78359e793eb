import torch

a = torch.tensor([1.0, 2.0])
b = torch.tensor([1.0, 2.0], requires_grad=True)
c = a * 2
d = b * 2
e = d.detach()
f = torch.ones(2).requires_grad_()
for name, t in [("a", a), ("b", b), ("c", c), ("d", d), ("e", e), ("f", f)]:
    print(name, t.is_leaf, t.requires_grad, t.grad_fn is None)
p = torch.nn.Parameter(torch.tensor([0.5]))
print(p.is_leaf, p.requires_grad)
print((a + b).requires_grad, (a + a).requires_grad)
