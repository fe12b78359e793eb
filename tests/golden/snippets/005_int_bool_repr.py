import torch

i = torch.tensor([3, -1, 4])
print(i, i.dtype)
b = i > 0
print(b, b.dtype)
print(torch.tensor([True, False, True]))
print(b.sum(), b.float())
print(i.to(torch.int32), i.to(torch.float32))
print(i * 2, i / 2, i // 2)
print(torch.tensor([1, 2], dtype=torch.uint8))
print(torch.tensor([[True], [False]]))
