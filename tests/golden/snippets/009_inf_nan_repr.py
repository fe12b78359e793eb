import torch

print(torch.tensor([float('inf'), -float('inf'), float('nan'), 1.0]))
print(torch.tensor([1.0, 0.0]) / 0)
print(torch.log(torch.tensor([0.0, 1.0])))
print(torch.tensor(float('nan')))
x = torch.tensor([0.0, 4.0], requires_grad=True)
y = torch.sqrt(x)
y.sum().backward()
print(y, x.grad)
print(torch.isnan(torch.tensor([float('nan'), 1.0])))
