# Generators, saved states and the cached second Box-Muller sample
import torch

g = torch.Generator().manual_seed(7)
print(g.initial_seed(), torch.rand(3, generator=g))
state = g.get_state()
print(state.dtype, state.shape)
first = torch.randn(5, generator=g)
g.set_state(state)
print(torch.equal(first, torch.randn(5, generator=g)))

torch.manual_seed(3)
print(torch.randn(3), torch.randn(1))
saved = torch.get_rng_state()
a = torch.randn(1)
torch.set_rng_state(saved)
print(torch.equal(a, torch.randn(1)))
with torch.random.fork_rng():
    torch.manual_seed(99)
    print(torch.rand(2))
print(torch.rand(2))
print(torch.manual_seed(-1).initial_seed())
