import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([5.0, 6.0])
y = (x * c).sum()
torch.autograd.grad(y, c)
