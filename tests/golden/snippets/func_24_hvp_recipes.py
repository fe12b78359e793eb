import torch
from torch.func import jvp, grad, vjp, jacrev

# Hessian-vector products as the torch.func docs build them
def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]

def vhp(f, x, v):
    _, vjp_fn = vjp(grad(f), x)
    return vjp_fn(v)[0]

def f(x):
    return (x ** 3).sum() + (x[0] * x[1]).exp()

x = torch.tensor([0.5, -0.25, 1.0])
v = torch.tensor([1., 2., 3.])
print(hvp(f, (x,), (v,)))
print(vhp(f, x, v))
print(jacrev(jacrev(f))(x) @ v)
print(torch.allclose(hvp(f, (x,), (v,)), vhp(f, x, v)))

# chunk_size gives the same Jacobian
print(jacrev(torch.sin, chunk_size=1)(x))
print(jacrev(torch.sin, chunk_size=2)(x))
