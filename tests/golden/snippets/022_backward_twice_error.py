import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
loss = y.sum()
loss.backward()
print(x.grad)
loss.backward()
