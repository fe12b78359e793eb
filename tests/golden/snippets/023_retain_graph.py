import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (x ** 2).sum()
loss.backward(retain_graph=True)
print(x.grad)
loss.backward(retain_graph=True)
print(x.grad)
loss.backward()
print(x.grad)
