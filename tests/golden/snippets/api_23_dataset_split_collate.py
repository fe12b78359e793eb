# A custom Dataset, random_split with a generator, and default_collate on dicts and numbers.
import torch
from torch.utils.data import DataLoader, Dataset, random_split


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.tensor([float(i)]), "y": i * i, "w": 0.5 * i, "name": f"item{i}"}


data = Squares(10)
train, test = random_split(data, [0.7, 0.3], generator=torch.Generator().manual_seed(42))
print(len(train), len(test), train.indices, test.indices)
batch = next(iter(DataLoader(train, batch_size=3)))
print(batch)
print(next(iter(DataLoader(data, batch_size=None))))
parts = random_split(range(5), [2, 3], generator=torch.Generator().manual_seed(1))
print([list(p) for p in parts])
DataLoader(data, batch_size=2, shuffle=True, sampler=range(10))
