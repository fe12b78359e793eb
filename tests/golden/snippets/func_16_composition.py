import torch
from torch.func import grad, jvp, vjp, jacfwd, jacrev

f = lambda x: (x.sin() * x.exp()).sum()
x = torch.tensor([0.3, -1.2, 2.0])

# grad of grad of a scalar function of a scalar
s = torch.tensor(0.7)
print(grad(grad(lambda t: t ** 3 * t.sin()))(s))
print(grad(grad(grad(lambda t: t ** 4)))(s))

# Hessian-vector product, forward over reverse
v = torch.tensor([1., 0., -1.])
_, hvp = jvp(grad(f), (x,), (v,))
print(hvp)
# and reverse over reverse
_, vjp_fn = vjp(grad(f), x)
print(vjp_fn(v))
# and reverse over forward
print(grad(lambda x: jvp(f, (x,), (v,))[1])(x))

print(jacfwd(jacrev(f))(x))
print(jacrev(jacrev(f))(x))
print(jacfwd(jacfwd(f))(x))
print(jacrev(jacfwd(f))(x))
print(jacrev(grad(f))(x))
print(jacfwd(grad(f))(x))

# A closure over an outer transform's input stays differentiable
def outer(y):
    return grad(lambda x: (x * y).sin().sum())(x).sum()
print(grad(outer)(torch.tensor([1., 2., 3.])))
