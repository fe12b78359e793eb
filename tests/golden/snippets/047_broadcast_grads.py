import torch

a = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)   # (3, 1)
b = torch.tensor([[10.0, 20.0, 30.0, 40.0]], requires_grad=True)  # (1, 4)
c = a * b
print(c.shape)
c.sum().backward()
print(a.grad)
print(b.grad)
bias = torch.tensor([0.5, -0.5], requires_grad=True)
out = torch.ones(4, 2) * 3 + bias
out.sum().backward()
print(bias.grad)
s = torch.tensor(2.0, requires_grad=True)
(s * torch.arange(5.0)).sum().backward()
print(s.grad)
