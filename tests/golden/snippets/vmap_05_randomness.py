# vmap randomness flags after manual_seed: a draw per example, or one for the batch
import torch
from torch.func import vmap
torch.manual_seed(0)
x = torch.zeros(4, 3)
print(vmap(lambda t: t + torch.rand(3), randomness="different")(x))
print(vmap(lambda t: t + torch.rand(3), randomness="same")(x))
print(vmap(lambda t: torch.randn_like(t), randomness="different")(x))
print(vmap(lambda t: torch.nn.functional.dropout(t + 1, 0.5), randomness="different")(x))
print(vmap(lambda t: torch.nn.functional.dropout(t + 1, 0.5), randomness="same")(x))
