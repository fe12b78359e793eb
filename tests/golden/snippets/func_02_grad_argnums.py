import torch
from torch.func import grad

# torch.func.grad docs: argnums picks the argument(s) to differentiate
def f(x, y):
    return (x ** 2 + y ** 2).sum()

x = torch.tensor([1., 2.])
y = torch.tensor([3., -1.])
print(grad(f)(x, y))
print(grad(f, argnums=1)(x, y))
gx, gy = grad(f, argnums=(0, 1))(x, y)
print(gx, gy)
print(type(grad(f, argnums=(0, 1))(x, y)).__name__)
print(grad(f, argnums=(1,))(x, y))
print(grad(f, argnums=-1)(x, y))
print(grad(f, argnums=(1, 0))(x, y))

def g(x, y, scale=2.0):
    return (x * y * scale).sum()

print(grad(g)(x, y))
print(grad(g)(x, y, scale=10.0))
print(grad(g, argnums=1)(x, y, scale=-1.0))
