import torch

u = torch.FloatTensor(2, 3)
print(u.shape, u.dtype)
print(torch.FloatTensor([1, 2, 3]))
print(torch.LongTensor([1, 2, 3]))
print(torch.DoubleTensor([1.5, 2.5]))
print(torch.Tensor([[1, 2], [3, 4]]))
print(torch.IntTensor([7]).dtype, torch.ByteTensor([1]).dtype, torch.BoolTensor([True]).dtype)
x = torch.ones(2)
print(x.type(), x.long().type(), x.type(torch.DoubleTensor))
print(torch.LongTensor(3).shape, torch.Tensor().shape)
