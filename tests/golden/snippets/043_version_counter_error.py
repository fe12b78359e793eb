import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
print(y._version)
y.add_(1)
print(y._version)
y.sum().backward()
