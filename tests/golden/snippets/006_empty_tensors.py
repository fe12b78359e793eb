import torch

e = torch.tensor([])
print(e, e.shape, e.dtype, e.numel())
print(torch.zeros(2, 0))
print(torch.zeros(0, 3).shape)
print(torch.tensor([], dtype=torch.int64))
print(torch.zeros(0, requires_grad=True))
print(e.sum())
x = torch.ones(3)
print(x[x > 5])
print(torch.cat([e, torch.tensor([1.0])]))
