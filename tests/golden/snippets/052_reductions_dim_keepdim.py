import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
print(x.sum(), x.sum(dim=0), x.sum(dim=1))
print(x.sum(dim=1, keepdim=True))
print(x.mean(dim=0, keepdim=True))
print(x.sum(dim=(0, 1)), x.mean(-1))
print(x.std(), x.var(dim=1))
x.mean(dim=1).sum().backward()
print(x.grad)
print(torch.tensor([[1, 2], [3, 4]]).sum(0))
