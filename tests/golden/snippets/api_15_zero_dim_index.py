# A classic old-tutorial bug: loss.data[0] on a 0-dim loss.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (x ** 2).sum()
print(loss, loss.dim(), loss.shape)
print(loss.item())
try:
    print(loss.data[0:1])
except IndexError as e:
    print(e)
print(loss[None], loss[...])
print(loss.data[0])
