import torch

print(torch.tensor(3.5))
print(torch.tensor(2))
print(torch.tensor(True))
print(torch.tensor(-0.25))
print(torch.tensor(1.0, dtype=torch.float64))
print(torch.tensor(7, dtype=torch.int32))
print(torch.tensor(2.0, requires_grad=True))
print(torch.tensor(1 / 3))
print(torch.tensor(3.5).shape, torch.tensor(3.5).dim())
