import torch

print(torch.tensor([1e-8, 1.0]))
print(torch.tensor([1e10, 1.0]))
print(torch.tensor([0.0001, 123456.0]))
print(torch.tensor([1e-5]))
print(torch.tensor(1e20))
print(torch.tensor([12345.678, 1.5]))
print(torch.tensor([1000.5, 2.0]))
print(torch.tensor([123456789.0]))
print(torch.tensor([0.001, 0.01]))
print(torch.tensor([-3e-7, 2e-7], requires_grad=True))
print(torch.tensor([1e-3, 5.0], dtype=torch.float64))
