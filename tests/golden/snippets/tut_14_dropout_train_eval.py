# Dropout is random in train mode and the identity in eval mode
import torch
from torch import nn

torch.manual_seed(0)
m = nn.Dropout(p=0.5)
x = torch.ones(3, 8)
print(m)
print(m.training)
print(m(x))
print(m(x))

m.eval()
print(m.training)
print(m(x))

m.train()
print(nn.functional.dropout(x, p=0.2, training=True))
print(nn.functional.dropout(x, p=0.2, training=False))

net = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.3))
inp = torch.randn(2, 4)
net.train()
print(net(inp))
net.eval()
print(net(inp))
print([mod.training for mod in net])
