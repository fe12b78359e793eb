import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
x.grad = torch.tensor([0.5, 0.5])
(x * 3).sum().backward()
print(x.grad)
try:
    x.grad = torch.tensor([1, 2])
except RuntimeError as e:
    print(type(e).__name__, e)
x.grad = torch.zeros(3)
