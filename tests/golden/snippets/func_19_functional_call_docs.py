import torch
import torch.nn as nn
from torch.func import functional_call, grad

# torch.func.functional_call docs: gradients with respect to a model's parameters
torch.manual_seed(0)
x = torch.randn(4, 3)
t = torch.randn(4, 3)
model = nn.Linear(3, 3)

def compute_loss(params, x, t):
    y = functional_call(model, params, (x,))
    return nn.functional.mse_loss(y, t)

grad_weights = grad(compute_loss)(dict(model.named_parameters()), x, t)
print(sorted(grad_weights))
print(grad_weights["weight"])
print(grad_weights["bias"])
print(grad_weights["weight"].grad_fn is not None)

detached_params = {k: v.detach() for k, v in model.named_parameters()}
grad_weights = grad(compute_loss)(detached_params, x, t)
print(grad_weights["weight"].grad_fn)
print(grad_weights["bias"])

# the model itself is unchanged, and answers as functional_call with its own parameters
print(torch.allclose(model(x), functional_call(model, dict(model.named_parameters()), x)))
zero = {k: torch.zeros_like(v) for k, v in model.named_parameters()}
print(functional_call(model, zero, (x,)))
print(model.weight.sum().item() != 0)
