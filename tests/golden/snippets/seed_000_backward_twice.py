# Seed notes 000/003: the "backward through the graph a second time" error.
import torch

x = torch.ones(2, 3, requires_grad=True)
a = torch.ones(3, 4)
out = torch.mm(x, a).sum()
out.backward()
print(x.grad)
out.backward()
