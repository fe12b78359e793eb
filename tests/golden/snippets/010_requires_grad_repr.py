import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(x)
print(x + 1)
print(x * x)
print(x.sum())
print(x.mean())
print(-x)
print(x.exp())
print(x[0])
print(x.view(3, 1))
print(x.detach())
