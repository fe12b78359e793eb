# Seed note 001: z.sum().backward() equals z.backward(torch.ones_like(z)).
import torch

x = torch.ones(2, requires_grad=True)
z = x + 2
z.sum().backward()
print(x.grad)

x = torch.ones(2, requires_grad=True)
z = x + 2
z.backward(torch.ones_like(z))
print(x.grad)

x = torch.ones(2, requires_grad=True)
z = x + 2
torch.autograd.backward(z, grad_tensors=torch.ones_like(z))
print(x.grad)
