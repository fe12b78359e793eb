import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = (x * 2).sum()
print(y.requires_grad, y.grad_fn)
torch.autograd.grad(y, x)
