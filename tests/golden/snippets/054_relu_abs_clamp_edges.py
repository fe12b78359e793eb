import torch

x = torch.tensor([-1.0, 0.0, 1.0, 2.0], requires_grad=True)
torch.relu(x).sum().backward()
print("relu", x.grad)
x.grad = None
x.abs().sum().backward()
print("abs", x.grad)
x.grad = None
x.clamp(min=0.0, max=1.0).sum().backward()
print("clamp", x.grad)
x.grad = None
torch.sign(x).sum().backward()
print("sign", x.grad)
print(x.clamp(0, 1), torch.relu(x))
