import torch
from torch.func import grad, jvp, jacrev

x = torch.tensor([1., 2., 3.])

# non-tensor arguments that are not differentiated are passed through
print(grad(lambda x, n: (x ** n).sum(), argnums=0)(x, 3))
print(grad(lambda x, opts: (x * opts["scale"]).sum())(x, {"scale": 2.0}))

# f may write into tensors it created
def f(x):
    y = x * 1
    y[0] = y[0] * 10
    y.mul_(x)
    return y.sum()
print(grad(f)(x))
print(jvp(lambda x: x.clone().mul_(2), (x,), (torch.ones(3),)))

# float64 stays float64
xd = torch.tensor([1., 2.], dtype=torch.float64)
print(grad(lambda x: x.sin().sum())(xd))
print(jacrev(lambda x: x ** 2)(xd))

# the input itself is left untouched and without grad
print(x, x.requires_grad, x.grad)
# grad inside inference mode is refused or works as PyTorch
with torch.enable_grad():
    print(grad(lambda x: (x * x).sum())(x))
