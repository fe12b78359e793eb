import torch
from torch.func import vmap

# torch.vmap docs: batched dot products, batched matrix-vector products
x = torch.arange(12.).reshape(4, 3)
y = torch.linspace(-1, 1, 12).reshape(4, 3)
print(vmap(torch.dot)(x, y))
W = torch.arange(6.).reshape(2, 3) / 10
print(vmap(torch.mv, in_dims=(None, 0))(W, x))
print(vmap(lambda a: W @ a)(x))

# in_dims, out_dims, nested vmap and chunk_size
print(vmap(lambda a: a.sum(), in_dims=1)(x))
print(vmap(lambda a: a * 2, out_dims=1)(x))
print(vmap(vmap(lambda a, b: a * b))(x, y))
print(vmap(lambda a: a.max(0), chunk_size=3)(x))
print(vmap(lambda a, b: (a + b, a - b), in_dims=(0, None))(x, torch.ones(3)))
print(vmap(lambda d: d["a"] * d["b"])({"a": x, "b": y}))

# shapes inside the function are one example's
def describe(a):
    print(a.shape, a.dim(), a.size(0), len(a))
    return a.softmax(0)
print(vmap(describe)(x))
print(vmap(lambda a: a.reshape(3, 1).expand(3, 2).t().flatten())(x))
print(vmap(lambda a: torch.stack([a, a.flip(0)]).sum(0))(x))
print(vmap(lambda a: a[1:] * a[:-1])(x))
print(vmap(lambda a: torch.cat([a, a.cumsum(0)]))(x))
