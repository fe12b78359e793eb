# TensorDataset + DataLoader: batches in order and shuffled (seeded), several epochs.
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.arange(10.0).reshape(5, 2)
y = torch.tensor([0, 1, 0, 1, 1])
dataset = TensorDataset(X, y)
print(len(dataset), dataset[2])

loader = DataLoader(dataset, batch_size=2)
print(len(loader))
for xb, yb in loader:
    print(xb.tolist(), yb.tolist())

shuffled = DataLoader(dataset, batch_size=2, shuffle=True, drop_last=True)
print(len(shuffled))
for epoch in range(2):
    print(epoch, [yb.tolist() for _, yb in shuffled])
print(next(iter(shuffled)))
print(torch.rand(1))  # the loaders consumed the global generator exactly as in PyTorch
