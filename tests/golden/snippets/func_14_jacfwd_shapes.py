import torch
from torch.func import jacfwd, jacrev

x = torch.tensor([[1., 2.], [3., 4.]])
J = jacfwd(lambda x: x.exp() * 2)(x)
print(J.shape)
print(J)
print(jacfwd(lambda s: s * torch.tensor([1., 2., 3.]))(torch.tensor(2.)))
print(jacfwd(lambda s: s ** 3)(torch.tensor(2.)))
v = torch.tensor([0.5, 1.5])
out = jacfwd(lambda v: (v.sin(), v * v))(v)
print(out)
out = jacfwd(lambda a, b: a * b, argnums=(0, 1))(v, torch.tensor([2., 4.]))
print(out)
f = lambda a, b: (a * b.exp()).tanh()
print(jacfwd(f, argnums=(0, 1))(v, torch.tensor([0.1, -0.2])))
print(jacrev(f, argnums=(0, 1))(v, torch.tensor([0.1, -0.2])))
j, aux = jacfwd(lambda v: (v.cos(), {"sum": v.sum()}), has_aux=True)(v)
print(j, aux)
print(jacfwd(lambda v: torch.ones(2))(v))
try:
    jacfwd(torch.sin, argnums=(0, 0))(v)
except Exception as e:
    print(type(e).__name__, e)
