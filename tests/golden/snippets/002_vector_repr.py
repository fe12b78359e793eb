import torch

print(torch.tensor([1.0, 2.0, 3.0]))
print(torch.tensor([1, 2, 3]))
print(torch.tensor([1, 2.5, -3]))
print(torch.tensor([0.1, 0.25, 100.0]))
print(torch.tensor([-1.5, 0.0, 2.25]))
print(torch.tensor([1.0, -0.0]))
print(torch.tensor([1.0, 2.0]) / 3)
print(torch.tensor([1.5, 2.5], requires_grad=True))
print(torch.zeros(3), torch.ones(2))
