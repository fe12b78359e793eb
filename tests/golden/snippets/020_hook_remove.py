import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
handle = x.register_hook(lambda g: g * 10)
(x * 2).sum().backward()
print(x.grad)
handle.remove()
x.grad = None
(x * 2).sum().backward()
print(x.grad)
