import torch

d = torch.tensor([1.0, 2.5], dtype=torch.float64)
print(d)
print(d.dtype)
print(torch.tensor([[1., 2.], [3., 4.]], dtype=torch.double, requires_grad=True))
x = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
y = x * x
print(y)
y.backward()
print(x.grad)
print((torch.tensor([1., 2.]) + d).dtype)
print(torch.tensor([1, 2], dtype=torch.int32))
print(torch.tensor([0.1], dtype=torch.float64).item())
