import torch

x = torch.arange(12.0).reshape(3, 4).requires_grad_()
print(x[1])
print(x[:, 2])
print(x[0:2, 1:3])
print(x[-1, -1])
print(x[[0, 2], [1, 3]])
print(x[x > 8])
print(x[..., 0], x[None].shape)
y = x[[0, 0, 2]].sum() + x[1, 1] * 10
y.backward()
print(x.grad)
