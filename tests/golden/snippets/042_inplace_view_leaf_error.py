import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
try:
    w[0] = 0.0
except RuntimeError as e:
    print(type(e).__name__, e)
v = w[1:]
v.mul_(2)
