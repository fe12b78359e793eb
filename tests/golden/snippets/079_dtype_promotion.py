import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 0.5, 0.5])
print(i + f, (i + f).dtype)
print(i * 2.5)
print(i / 2, (i / 2).dtype)
print(i + 1, (i + True).dtype)
print(torch.tensor([1, 2]) + torch.tensor([1.0, 2.0], dtype=torch.float64))
print(torch.tensor(3) * torch.tensor([1.5, 2.0]))
print(torch.tensor([True, False]) + 1)
print(torch.arange(5), torch.arange(0, 1, 0.25), torch.arange(1, 4).float())
