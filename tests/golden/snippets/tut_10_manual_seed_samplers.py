# Reproducibility basics: the same seed gives the same numbers
import torch

torch.manual_seed(42)
print(torch.randn(2, 3))
print(torch.rand(3))
print(torch.randint(0, 10, (5,)))
print(torch.randint(3, 7, (2, 2)))
print(torch.randperm(6))
print(torch.normal(0, 1, (2, 2)))
print(torch.normal(mean=torch.arange(1., 6.), std=torch.arange(1, 0, -0.2)))
print(torch.normal(2.0, 3.0, size=(4,)))

torch.manual_seed(42)
again = torch.randn(2, 3)
print(again)
print(torch.rand(2, 2, dtype=torch.float64))
print(torch.randn(3, dtype=torch.double))
print(torch.randint(10, (3,)).dtype, torch.randperm(4).dtype)
