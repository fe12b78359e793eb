import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
d = y.detach()
print(d, d.requires_grad, d.is_leaf)
d[0] = 100.0  # detach shares storage with y
print(y)
z = y * 3
z.detach_()
print(z, z.requires_grad, z.grad_fn)
