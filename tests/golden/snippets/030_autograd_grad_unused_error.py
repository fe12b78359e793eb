import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([0.5], requires_grad=True)
y = (x * x).sum()
torch.autograd.grad(y, [x, w])
