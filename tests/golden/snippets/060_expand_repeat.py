import torch

x = torch.tensor([[1.0], [2.0]], requires_grad=True)
e = x.expand(2, 3)
r = x.repeat(2, 3)
print(e)
print(r)
(e * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad)
x.grad = None
r.sum().backward()
print(x.grad)
print(torch.tensor([1, 2]).unsqueeze(1).expand(-1, 3))
