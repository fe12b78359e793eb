# Dropout in train mode drops the same elements as PyTorch; in eval mode it is the identity
import torch
from torch import nn

torch.manual_seed(1)
drop = nn.Dropout(p=0.5)
x = torch.ones(2, 8)
print(drop(x))
print(drop(x))
drop.eval()
print(drop(x))
model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Dropout(0.2), nn.Linear(6, 1))
out = model(torch.randn(3, 4))
print(out)
print(out.grad_fn)
