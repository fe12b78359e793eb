import torch

print(torch.zeros(2, 3))
print(torch.ones(2, dtype=torch.int64))
print(torch.full((2, 2), 7.0))
print(torch.linspace(0, 1, 5))
print(torch.zeros_like(torch.tensor([[1, 2]])), torch.ones_like(torch.tensor([1.5])))
print(torch.empty(3, 0).shape, torch.arange(6).view(2, 3))
print(torch.tensor([[1.0, 2.0]], requires_grad=True).new_zeros(2))
print(torch.eye(2, 3))
