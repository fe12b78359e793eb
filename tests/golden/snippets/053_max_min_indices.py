import torch

x = torch.tensor([[1.0, 5.0, 5.0], [7.0, 2.0, 7.0]], requires_grad=True)
print(x.max())
print(x.max(dim=1))
values, indices = x.min(dim=0)
print(values, indices)
print(x.argmax(), x.argmax(dim=1), x.max(dim=1, keepdim=True).indices)
x.max().backward()
print(x.grad)
x.grad = None
x.max(dim=1).values.sum().backward()
print(x.grad)
