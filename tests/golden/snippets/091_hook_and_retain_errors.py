import torch

c = torch.tensor([1.0, 2.0])
try:
    c.register_hook(lambda g: g)
except RuntimeError as e:
    print(type(e).__name__, e)
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x.register_hook(lambda g: None)  # returning None keeps the gradient
(x * 5).sum().backward()
print(x.grad)
c.retain_grad()
