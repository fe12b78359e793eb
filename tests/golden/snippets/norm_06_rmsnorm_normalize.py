# RMSNorm as LLaMA-style tutorials write it (and the built-in nn.RMSNorm), F.normalize for cosine
# similarities of embeddings, and triu_indices to pick the pairs above the diagonal
import torch
from torch import nn
import torch.nn.functional as F


class MyRMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


torch.manual_seed(11)
x = torch.randn(2, 3, 8, requires_grad=True)
mine, builtin = MyRMSNorm(8), nn.RMSNorm(8, eps=1e-6)
a, b = mine(x), builtin(x)
print(builtin, a[0, 0], b[0, 0], torch.allclose(a, b), b.grad_fn)
(a.sum() + 2 * b.sum()).backward()
print(x.grad[1, 2], mine.weight.grad, builtin.weight.grad)

emb = torch.randn(4, 6)
unit = F.normalize(emb, p=1, dim=-1)
print(unit.abs().sum(-1), unit.grad_fn)
sims = unit @ unit.T
rows, cols = torch.triu_indices(4, 4, offset=1)
print(rows, cols, sims[rows, cols])
print(torch.tril_indices(3, 3))
