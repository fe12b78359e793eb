import torch

a = torch.tensor([[1.0, 2.0]], requires_grad=True)
b = torch.tensor([[3.0, 4.0], [5.0, 6.0]], requires_grad=True)
c = torch.cat([a, b], dim=0)
print(c)
s = torch.stack([a[0], b[0]], dim=1)
print(s, s.shape)
(c * torch.tensor([[1.0], [2.0], [3.0]])).sum().backward()
print(a.grad)
print(b.grad)
try:
    torch.cat([a, b], dim=1)
except RuntimeError as e:
    print(type(e).__name__, e)
torch.stack([a, b])
