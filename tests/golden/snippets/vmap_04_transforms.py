import torch
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

xs = torch.tensor([[1., 2., 3.], [0.5, 0.1, -1.], [2., 0., 1.]])


def f(x):
    return (x.sin() * x).sum()


print(vmap(grad(f))(xs))
print(vmap(jacrev(torch.sin))(xs[:2]))
print(vmap(jacfwd(torch.tanh))(xs[:2]))
print(vmap(hessian(lambda b: (b ** 3).sum()))(xs[:2]))
print(vmap(lambda x: jvp(torch.sin, (x,), (torch.ones(3),)))(xs))
print(vmap(lambda x, v: vjp(torch.exp, x)[1](v)[0])(xs, xs))
print(jacrev(vmap(torch.sin))(xs[:2]).shape)
print(grad(lambda x: vmap(torch.sin)(x).sum())(xs))
print(vmap(vmap(grad(lambda a: (a * a).sum())))(xs.reshape(3, 3, 1)))

# per-example Jacobians of a tiny model, with the weight shared and batched in turn
W = torch.tensor([[1., -1., 0.5], [0.2, 0.3, -0.4]])
print(vmap(jacrev(lambda x: torch.tanh(W @ x)))(xs))
Ws = torch.stack([W, 2 * W, -W])
print(vmap(lambda w, x: torch.tanh(w @ x))(Ws, xs))
