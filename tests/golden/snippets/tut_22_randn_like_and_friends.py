# *_like samplers and sampling with dtypes
import torch

torch.manual_seed(10)
base = torch.zeros(2, 3)
print(torch.rand_like(base))
print(torch.randn_like(base))
print(torch.randint_like(base, 10))
print(torch.randint_like(base, 5, 8))
print(torch.randint(0, 2, (6,)).bool())
print(torch.rand(2, 2, requires_grad=True))
print(torch.randn(2, requires_grad=True).dtype)
print(torch.randint(-5, 5, (3,), dtype=torch.int32))
print(torch.randperm(5, dtype=torch.float32))
print(torch.rand(()))
print(torch.randn(0))
