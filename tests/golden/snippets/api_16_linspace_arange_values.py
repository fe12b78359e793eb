# linspace and arange: PyTorch's values, last bits included.
import torch

print(torch.linspace(-1, 1, 7))
print(torch.linspace(-1, 1, 7).tolist())
print(torch.linspace(0, 1, 11).tolist())
print(torch.linspace(0, 10, steps=5))
print(torch.linspace(0, 10, 4, dtype=torch.int64))
print(torch.arange(0, 1, 0.1))
print(torch.arange(0, 1, 0.1).tolist())
print(torch.arange(0, 1, 0.1, dtype=torch.float64).tolist())
print(torch.arange(-1, 1, 0.3).tolist())
print(len(torch.arange(0, 1, 0.1)), len(torch.arange(0, 0.3, 0.1)), len(torch.arange(1, 2.5, 0.5)))
print(torch.arange(10, 0, -3), torch.arange(5, dtype=torch.float32))
print(torch.logspace(-2, 2, 5))
print(torch.linspace(0, 2 * 3.141592653589793, 9).sin())
