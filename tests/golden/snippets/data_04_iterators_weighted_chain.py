# iter(loader) has a length; WeightedRandomSampler, ChainDataset, ConcatDataset via +, get_worker_info
import torch
from torch.utils.data import DataLoader, TensorDataset
import torch.utils.data as tud
torch.manual_seed(0)
loader = DataLoader(TensorDataset(torch.arange(10.)), batch_size=4, shuffle=True)
it = iter(loader)
print(len(it))
print(next(it))
print(hasattr(tud, "WeightedRandomSampler"), tud.get_worker_info(), hasattr(tud, "ChainDataset"))
try:
    s = tud.WeightedRandomSampler([0.1, 0.9, 0.4, 0.7], num_samples=6, replacement=True)
    print(list(s))
except Exception as e: print(type(e).__name__, e)
print(DataLoader(range(5), batch_size=2, num_workers=2).num_workers)
ds = TensorDataset(torch.arange(4.)) + TensorDataset(torch.arange(4., 8.))
print(type(ds).__name__, len(ds), ds[5])
print(list(DataLoader(range(3))))
print(torch.randn(1))
class S(tud.IterableDataset):
    def __init__(self, a, b): self.a, self.b = a, b
    def __iter__(self): return iter(range(self.a, self.b))
    def __len__(self): return self.b - self.a
c = S(0, 3) + S(10, 12)
print(type(c).__name__, list(c), len(c), list(DataLoader(c, batch_size=2)))
g = torch.Generator().manual_seed(5)
print(list(tud.WeightedRandomSampler([1., 0., 3.], 5, generator=g)), list(tud.WeightedRandomSampler([1, 2, 3, 4], 3, replacement=False)))
for bad in (lambda: tud.WeightedRandomSampler([1.], 0), lambda: tud.WeightedRandomSampler([[1.]], 1)):
    try: bad()
    except ValueError as e: print(e)
print(torch.randn(1))
