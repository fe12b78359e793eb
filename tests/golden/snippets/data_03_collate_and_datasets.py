# default_collate on the shapes samples come in; custom Dataset, IterableDataset and collate_fn
import collections

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset, default_collate


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.tensor([float(i)]), "y": i * i, "name": f"item{i}"}


for batch in DataLoader(Squares(5), batch_size=2):
    print(batch)
print(default_collate([(1, 2.5), (3, 4.5)]))
print(default_collate([[torch.ones(2), 0], [torch.zeros(2), 1]]))
Point = collections.namedtuple("Point", ["x", "y"])
print(default_collate([Point(1, 2.0), Point(3, 4.0)]))
print(default_collate([np.array([1, 2]), np.array([3, 4])]))
print(default_collate([np.float64(1.5), np.float64(2.5)]))
print(list(DataLoader([1, 2, 3, 4, 5], batch_size=2)))
print(list(DataLoader([(1, "a"), (2, "b")], batch_size=None)))
print(list(DataLoader([1.5, 2.5, 3.5], batch_size=2, collate_fn=lambda b: sum(b))))


class Stream(IterableDataset):
    def __iter__(self):
        return iter(range(5))


print(list(DataLoader(Stream(), batch_size=2)), list(DataLoader(Stream(), batch_size=2, drop_last=True)))
for kwargs in ({"shuffle": True, "sampler": [0, 1]}, {"batch_sampler": [[0]], "batch_size": 2},
               {"batch_size": None, "drop_last": True}, {"num_workers": -1}):
    try:
        DataLoader(range(3), **kwargs)
    except ValueError as e:
        print(type(e).__name__, e)
try:
    default_collate([object()])
except TypeError as e:
    print(type(e).__name__, e)
