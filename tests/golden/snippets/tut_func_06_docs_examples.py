# Examples from the torch.func docs pages (vmap, jacrev, jacfwd, hessian) that
# lean on torch.diag, torch.einsum, trace and movedim; small sizes.
import torch
from torch.func import vmap, jacrev, jacfwd, hessian, grad
torch.manual_seed(0)

# torch.vmap: batched dot product, batched matrix multiply, batched diagonals
batched_dot = torch.func.vmap(torch.dot)  # [N, D], [N, D] -> [N]
x, y = torch.randn(2, 5), torch.randn(2, 5)
print(batched_dot(x, y))
batched_pow = vmap(lambda a: a ** 2)
print(batched_pow(x).shape)
print(vmap(torch.trace)(torch.randn(3, 4, 4)))
print(vmap(torch.diag)(torch.arange(6.).view(2, 3)))

# jacrev / jacfwd docs: the Jacobian of sin is diag(cos(x))
x = torch.randn(5)
jacobian = jacrev(torch.sin)(x)
expected = torch.diag(torch.cos(x))
assert torch.allclose(jacobian, expected)
print(torch.allclose(jacfwd(torch.sin)(x), expected))
hess = jacrev(jacrev(torch.sin))(x)
print(hess.shape, hess.diagonal(0, 0, 1).diagonal())
hess2 = hessian(lambda t: t.sin().sum())(x)
assert torch.allclose(hess2, torch.diag(-x.sin()))
print(hess2.diag())

# batched Jacobians via vmap and the docs' torch.einsum checks
A = torch.randn(3, 4)
def f(v):
    return torch.einsum('ij,j->i', A, v).tanh()
xs = torch.randn(6, 4)
J = vmap(jacrev(f))(xs)
print(J.shape)
print(torch.allclose(J, vmap(jacfwd(f))(xs)))
Jsum = jacrev(lambda v: vmap(f)(v).sum(0))(xs).movedim(1, 0)
print(torch.allclose(J, Jsum))
print(torch.einsum('bij,bkj->bik', J, J)[0])
print(torch.einsum('bii->b', torch.einsum('bij,bkj->bik', J, J)))

# a Gram matrix's trace and its gradient, grad of einsum
M = torch.randn(3, 3)
print(grad(lambda m: torch.einsum('ij,ij->', m, m))(M))
print(grad(lambda m: torch.trace(m @ m.T))(M))
print(torch.einsum('ii', M), torch.trace(M), M.diagonal(), M.diagonal(-1))
