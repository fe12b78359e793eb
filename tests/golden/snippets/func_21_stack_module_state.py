import torch
import torch.nn as nn
from torch.func import stack_module_state, functional_call

torch.manual_seed(0)
models = [nn.Linear(3, 2) for _ in range(4)]
params, buffers = stack_module_state(models)
print(sorted(params), buffers)
print(params["weight"].shape, params["bias"].shape)
print(params["weight"].requires_grad, params["weight"].is_leaf, params["weight"].grad_fn)
print(torch.equal(params["weight"][2], models[2].weight))
print(params["bias"])

class Scaled(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.lin = nn.Linear(2, 1)
        self.register_buffer("scale", torch.tensor([k, 2.0 * k]))

    def forward(self, x):
        return self.lin(x * self.scale)

nets = [Scaled(k) for k in (1.0, 2.0, 3.0)]
p, b = stack_module_state(nets)
print(sorted(p), sorted(b))
print(b["scale"], b["scale"].requires_grad, p["lin.weight"].shape)
one = {k: v[1] for k, v in p.items()}
one.update({k: v[1] for k, v in b.items()})
print(torch.allclose(functional_call(nets[0], one, torch.ones(1, 2)), nets[1](torch.ones(1, 2))))

for name, call in [
    ("empty", lambda: stack_module_state([])),
    ("classes", lambda: stack_module_state([nn.Linear(1, 1), nn.ReLU()])),
    ("modes", lambda: stack_module_state([nn.Linear(1, 1), nn.Linear(1, 1).eval()])),
]:
    try:
        call()
    except Exception as e:
        print(name, "->", type(e).__name__, e)

m1, m2 = nn.Linear(1, 1), nn.Linear(1, 1)
m2.weight.requires_grad_(False)
try:
    stack_module_state([m1, m2])
except Exception as e:
    print(type(e).__name__, e)
