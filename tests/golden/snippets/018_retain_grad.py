import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
y.retain_grad()
z = (y * torch.tensor([1.0, 0.5, 0.25])).sum()
print(y.retains_grad, x.retains_grad, z.retains_grad)
z.backward()
print(y.grad)
print(x.grad)
x.retain_grad()  # a no-op on a leaf
print(x.retains_grad)
