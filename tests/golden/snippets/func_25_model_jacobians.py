import torch
import torch.nn as nn
from torch.func import functional_call, jacrev, grad, vjp

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.randn(5, 3)

def f(params, x):
    return functional_call(model, params, (x,))

jac = jacrev(f)(params, x)
print({k: tuple(v.shape) for k, v in jac.items()})
print(jac["2.bias"][0])

def loss(params, x, y):
    return ((f(params, x) - y) ** 2).mean()

y = torch.randn(5, 2)
g = grad(loss)(params, x, y)
print(g["0.weight"])
# the same numbers as loss.backward() on the model
model.zero_grad()
loss(dict(model.named_parameters()), x, y).backward()
print(torch.allclose(model[0].weight.grad, g["0.weight"]))

# one step of SGD written functionally
new_params = {k: p - 0.1 * g[k] for k, p in params.items()}
print(loss(params, x, y), loss(new_params, x, y))
out, fn = vjp(lambda p: f(p, x), params)
print(fn(torch.ones(5, 2))[0]["2.bias"])
