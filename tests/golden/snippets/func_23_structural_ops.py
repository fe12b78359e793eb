import torch
from torch.func import jacfwd, jacrev, jvp, hessian

W = torch.tensor([[1., 2., 0.], [0., -1., 3.]])
x = torch.tensor([0.5, -1.0, 2.0])

f = lambda x: (W @ x).tanh()
print(jacrev(f)(x))
print(jacfwd(f)(x))
print(jvp(f, (x,), (torch.tensor([1., 1., 1.]),)))

g = lambda x: torch.cat([x[:2] * 2, x.reshape(3, 1).sum(1), x.mean().unsqueeze(0)])
print(jacrev(g)(x))
print(jacfwd(g)(x))

h = lambda x: x.view(3, 1).expand(3, 2).t().exp().sum()
print(hessian(h)(x))

M = torch.tensor([[1., 2.], [3., 4.]])
print(jacfwd(lambda m: m @ m)(M).shape)
print(torch.allclose(jacfwd(lambda m: m @ m)(M), jacrev(lambda m: m @ m)(M)))
print(jacrev(lambda m: (m.T @ m).sum())(M))
print(jacrev(lambda m: m)(M)[1])
print(jacfwd(lambda m: torch.stack([m[0], m[:, 1]]))(M))
