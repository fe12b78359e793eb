import torch

a = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)
b = a * 2
b.add_(1)  # fine: multiplying by a constant does not need b in backward
print(b.grad_fn.name(), b._version)
b.sum().backward()
print(a.grad)
c = a.sigmoid()
c.mul_(3)  # sigmoid's backward needs its output, which is now changed
c.sum().backward()
