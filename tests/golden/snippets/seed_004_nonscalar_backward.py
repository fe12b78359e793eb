# Seed note 004: backward() on a non-scalar y = x * x (typo torch.arrange fixed).
import torch

x = torch.arange(4.0, requires_grad=True)
y = x * x
print(y)
y.backward()
