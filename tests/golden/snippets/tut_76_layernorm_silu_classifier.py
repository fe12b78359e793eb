# 一个小分类器：LayerNorm + SiLU + cross_entropy, every digit of the loss and of a gradient row
import torch
from torch import nn

torch.manual_seed(0)
x = torch.randn(4, 6)
y = torch.tensor([0, 2, 1, 2])
model = nn.Sequential(nn.Linear(6, 8), nn.LayerNorm(8), nn.SiLU(), nn.Linear(8, 3))
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
print(model)
print("loss", loss.item())
print(torch.softmax(model(x), dim=1))
print(model[0].weight.grad[0].tolist())
