# Seed note 004: y.backward(gradient=torch.ones(len(y))) equals y.sum().backward().
import torch

x = torch.arange(4.0, requires_grad=True)
y = 2 * torch.dot(x, x)
y.backward()
x.grad.zero_() # clean up grad buffer
y = x * x
y.backward(gradient=torch.ones(len(y)))
print(x.grad)
x.grad.zero_()
y = x * x
y.sum().backward()
print(x.grad)
