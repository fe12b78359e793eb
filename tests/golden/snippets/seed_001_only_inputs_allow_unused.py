# Seed note 001: only_inputs (deprecated) and allow_unused.
import torch

x = torch.tensor(2., requires_grad=True)
w = torch.tensor(3., requires_grad=True)
y = x * x
print(torch.autograd.grad(y, x, only_inputs=False, retain_graph=True))
print(torch.autograd.grad(y, [x, w], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(y, [x, w]))
