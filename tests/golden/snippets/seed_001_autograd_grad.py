# Seed note 001: torch.autograd.grad with grad_outputs and create_graph.
import torch

x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 3
g, = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)
print(g)
g2, = torch.autograd.grad(g, x, grad_outputs=torch.ones_like(g))
print(g2)
print(x.grad)
