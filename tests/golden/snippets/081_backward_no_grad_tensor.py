import torch

x = torch.tensor([1.0, 2.0])
loss = (x * 2).sum()
print(loss.requires_grad, loss.grad_fn)
loss.backward()
