import torch

a = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
print(a)
print(torch.tensor([[1, -2], [30, 4]]))
print(torch.tensor([[0.5, -1.25], [3.0, 10.0]], requires_grad=True))
b = torch.arange(12.).reshape(2, 3, 2)
print(b)
print(torch.eye(3))
print(a.shape, a.size(), a.size(1), a.dim(), a.numel())
