import torch

x = torch.arange(6.0, requires_grad=True)
m = x.view(2, 3)
print(m, m.is_contiguous())
t = m.t()
print(t, t.is_contiguous(), t.stride())
print(m.permute(1, 0).shape, x.reshape(3, -1).shape, m.transpose(0, 1).shape)
print(t.reshape(6))
(t.reshape(6) * torch.arange(6.0)).sum().backward()
print(x.grad)
try:
    t.view(6)
except RuntimeError as e:
    print(type(e).__name__, e)
x.view(4, 2)
