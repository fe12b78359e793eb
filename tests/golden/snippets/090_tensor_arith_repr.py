import torch

a = torch.tensor([1.0, 2.0, 3.0])
b = torch.tensor([4.0, 5.0, 6.0])
print(a + b, a - b, a * b, a / b)
print(a ** 2, torch.sqrt(a), torch.exp(a))
print(torch.sin(a), torch.tanh(a), torch.sigmoid(a))
print(a @ b, (a * b).sum(), a.mean(), a.std())
print(torch.tensor([2.0, 3.0]) ** torch.tensor([3.0, 0.5]))
print(a > 1.5, a == b - 3, (a >= 2) & (b < 6))
