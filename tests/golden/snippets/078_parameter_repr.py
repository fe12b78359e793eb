import torch
import torch.nn as nn

p = nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(nn.Parameter(torch.tensor([[0.5]]), requires_grad=False))
q = p * 2
print(q)
print(type(p).__name__, type(q).__name__)
print(p.data, p.detach())
