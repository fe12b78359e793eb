# Factories called with keywords, as some tutorials do.
import torch

print(torch.zeros(size=(2, 3)))
print(torch.ones((2, 3)), torch.ones([1, 2]))
print(torch.full((2,), 3.0), torch.full(size=(2, 2), fill_value=7))
print(torch.full((2,), True), torch.full((1,), 2, dtype=torch.float64))
print(torch.empty(size=(2, 3)).shape, torch.empty(0))
print(torch.arange(start=0, end=5), torch.arange(end=3), torch.arange(start=1, end=4, step=2))
print(torch.tensor(data=[1.0, 2.0]), torch.tensor(data=3, dtype=torch.float32))
print(torch.eye(n=2), torch.eye(2, m=3))
print(torch.linspace(start=0, end=1, steps=3), torch.logspace(start=0, end=2, steps=3))
print(torch.zeros_like(input=torch.ones(2)), torch.full_like(torch.ones(2), fill_value=7))
print(torch.zeros(torch.Size([2])), torch.zeros(2, 3, dtype=torch.int64))
print(torch.ones(2, device="cpu"), torch.zeros(2, 2, device=torch.device("cpu"), requires_grad=True))
torch.zeros(2, size=(3,))
