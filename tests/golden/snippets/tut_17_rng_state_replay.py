# Save the RNG state and replay the same random numbers
import torch

torch.manual_seed(123)
state = torch.get_rng_state()
print(state.dtype, state.shape)
a = torch.rand(3)
b = torch.randn(2)
torch.set_rng_state(state)
a2 = torch.rand(3)
b2 = torch.randn(2)
print(a, a2)
print(torch.equal(a, a2), torch.equal(b, b2))

g = torch.Generator()
g.manual_seed(5)
gs = g.get_state()
x = torch.randint(0, 100, (4,), generator=g)
g.set_state(gs)
print(x, torch.randint(0, 100, (4,), generator=g))
print(torch.initial_seed())

torch.manual_seed(123)
print(torch.equal(torch.get_rng_state(), state))
print(torch.random.initial_seed())
torch.random.manual_seed(9)
print(torch.rand(2))
