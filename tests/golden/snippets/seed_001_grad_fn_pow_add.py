# Seed note 001: grad_fn names (PowBackward0, AddBackward0) and is_leaf.
import torch

x = torch.ones(2, 2, requires_grad=True)
y = x ** 2
z = y + 2
print(x.data, x.requires_grad, x.grad, x.grad_fn, x.is_leaf)
print(y.grad_fn)
print(z.grad_fn)
print(x.is_leaf, y.is_leaf, z.is_leaf)
