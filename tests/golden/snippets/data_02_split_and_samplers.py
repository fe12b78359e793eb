# random_split, Subset and the samplers, seeded globally and with generators
import torch
from torch.utils.data import (BatchSampler, DataLoader, RandomSampler, SequentialSampler, Subset,
                              SubsetRandomSampler, TensorDataset, random_split)

torch.manual_seed(1)
data = TensorDataset(torch.arange(10.) * 10, torch.arange(10))
train, test = random_split(data, [7, 3])
print(type(train).__name__, len(train), len(test), train.indices, test.indices)
print(train[0], test[2])
parts = random_split(range(10), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(42))
print([list(p) for p in parts])
print(list(RandomSampler(range(6))), list(RandomSampler(range(6), generator=torch.Generator().manual_seed(3))))
print(list(RandomSampler(range(5), replacement=True, num_samples=8)))
print(list(SequentialSampler("abc")), list(SubsetRandomSampler([10, 20, 30, 40])))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False)))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=True)))
sub = Subset(data, [9, 0, 5])
print(len(sub), sub[0], [b[1].tolist() for b in DataLoader(sub, batch_size=2)])
loader = DataLoader(data, batch_sampler=BatchSampler(RandomSampler(data), 4, False))
print([b[1].tolist() for b in loader], len(loader))
print(torch.randint(0, 100, (3,)))
