# nn.Linear's default initialisation and a forward pass, after manual_seed
import torch
from torch import nn

torch.manual_seed(42)
layer = nn.Linear(3, 2)
print(layer.weight)
print(layer.bias)
x = torch.randn(4, 3)
y = layer(x)
print(y)
loss = y.pow(2).mean()
loss.backward()
print(layer.weight.grad)
emb = nn.Embedding(5, 2)
print(emb(torch.tensor([0, 3])))
