# Seed note 001: backward() on a vector output without grad_tensors.
import torch

x = torch.ones(2, requires_grad=True)
z = x + 2
z.backward()
