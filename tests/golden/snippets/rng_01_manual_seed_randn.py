# A tutorial's first cell: seed, then random tensors print PyTorch's exact numbers
import torch

torch.manual_seed(0)
x = torch.randn(3)
print(x)
print(torch.randn(2, 4))
print(torch.rand(2, 2))
print(torch.randint(0, 10, (6,)))
print(torch.randn(20).sum())
w = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
print(w)
