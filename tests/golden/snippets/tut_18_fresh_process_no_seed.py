# No manual_seed: the numbers differ per run, but their properties and a replay do not
import torch

s = torch.initial_seed()
print(type(s).__name__, s >= 0)
s = torch.seed()  # a new non-deterministic seed, returned so that it can be replayed
print(s == torch.initial_seed())
a = torch.rand(1000)
print(a.shape, a.dtype, bool((a >= 0).all()), bool((a < 1).all()))
b = torch.rand(1000)
print(torch.equal(a, b))

torch.manual_seed(s)
again = torch.rand(1000)
print(torch.equal(a, again))

r = torch.randint(0, 5, (200,))
print(r.min().item() >= 0, r.max().item() <= 4)
print(sorted(torch.randperm(10).tolist()))
n = torch.randn(10000)
print(abs(n.mean().item()) < 0.05, abs(n.std().item() - 1) < 0.05)
