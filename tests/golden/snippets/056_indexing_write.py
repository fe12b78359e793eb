import torch

t = torch.zeros(3, 4)
t[0] = 1.0
t[:, 1] = torch.tensor([5.0, 6.0, 7.0])
t[t > 5] = -1.0
t[[1, 2], [3, 0]] = 9.0
print(t)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y[1] = 0.0
print(y)
print(y.grad_fn.name())
y.sum().backward()
print(x.grad)
