import torch

x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
(x ** 0.5).sum().backward()
print(x.grad)
x.grad = None
torch.log(x).sum().backward()
print(x.grad)
x.grad = None
(x ** 2).sum().backward()
print(x.grad)
x.grad = None
(x ** 0).sum().backward()
print(x.grad)
print(torch.tensor(0.0) ** 0, torch.exp(torch.tensor([100.0])))
