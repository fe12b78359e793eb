import torch

x = torch.tensor([1.0, 2.0, 3.0])
try:
    torch.zeros(2, 2)[0, 0, 0]
except IndexError as e:
    print(type(e).__name__, e)
x[3]
