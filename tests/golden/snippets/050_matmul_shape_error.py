import torch

x = torch.ones(2, 3)
w = torch.ones(2, 3)
try:
    torch.dot(torch.ones(2), torch.ones(3))
except RuntimeError as e:
    print(type(e).__name__, e)
torch.mm(x, w)
