import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print(torch.autograd.grad(y, x, grad_outputs=torch.tensor([1.0, 1.0]), retain_graph=True))
torch.autograd.grad(y, x, grad_outputs=torch.ones(3))
