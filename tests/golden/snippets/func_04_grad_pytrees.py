import torch
from torch.func import grad

# Arguments may be tuples, lists and dicts of tensors: the gradient has the same structure
params = {"w": torch.tensor([1., 2.]), "b": torch.tensor(0.5)}
x = torch.tensor([3., 4.])

def loss(p, x):
    return ((p["w"] * x).sum() + p["b"]) ** 2

grads = grad(loss)(params, x)
print(type(grads).__name__, sorted(grads))
print(grads["w"])
print(grads["b"])

pair = (torch.tensor([1., 2.]), torch.tensor([3.]))
print(grad(lambda p: (p[0] * p[1]).sum())(pair))
lst = [torch.tensor(1.), torch.tensor(2.)]
print(grad(lambda l: l[0] * l[1] ** 2)(lst))
print(grad(lambda p, x: (p[0] * x).sum(), argnums=(0, 1))([torch.tensor([2.])], torch.tensor([5.])))
