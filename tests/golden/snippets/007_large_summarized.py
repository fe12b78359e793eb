import torch

print(torch.arange(1000.))
print(torch.arange(1001.))
print(torch.arange(2000))
m = torch.arange(10000.).reshape(100, 100)
print(m)
print(torch.ones(1500, requires_grad=True) * 2)
print(torch.arange(3000.).reshape(2, 1500))
