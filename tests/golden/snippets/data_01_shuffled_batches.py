# DataLoader(shuffle=True) after manual_seed: the same batches as PyTorch, and the same draws consumed
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.arange(20.).reshape(10, 2)
y = torch.arange(10)
loader = DataLoader(TensorDataset(X, y), batch_size=4, shuffle=True)
print(len(loader), len(loader.dataset), type(loader.sampler).__name__, loader.batch_size)
for epoch in range(2):
    for xb, yb in loader:
        print(epoch, yb.tolist(), xb[:, 0].tolist())
print(next(iter(loader)))
print(torch.randn(2))  # the generator moved on exactly as PyTorch's did

it = iter(loader)
first = next(it)
print(type(first).__name__, len(first), first[1])
print(torch.rand(1))

dropped = DataLoader(TensorDataset(X), batch_size=3, shuffle=True, drop_last=True)
print(len(dropped), [b[0].shape for b in dropped])
g = torch.Generator().manual_seed(42)
with_gen = DataLoader(range(7), batch_size=3, shuffle=True, generator=g)
print(list(with_gen), list(with_gen))
print(torch.randn(1))  # an explicit generator leaves the global one alone
