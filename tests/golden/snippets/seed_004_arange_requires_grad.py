# Seed note 004 (Dive into Deep Learning). The note writes torch.arrange,
# a typo: the function is torch.arange.
import torch

x = torch.arange(4.0)
print(x)
x.requires_grad_(True)
print(x)
x = torch.arange(4.0, requires_grad=True)
print(x.grad)
y = 2 * torch.dot(x, x)
print(y)
y.backward()
print(x.grad)
print(x.grad == 4 * x)
