import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x.t().reshape(-1)[1:3].unsqueeze(0)
print(y, y.shape)
(y * torch.tensor([[10.0, 100.0]])).sum().backward()
print(x.grad)
print(x.t()._base is x, x.t().is_leaf)
