import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = a.sigmoid()
c = out.data
c.zero_()
print(out)
out.sum().backward()
print(a.grad)
b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = b.sigmoid()
out.detach().zero_()
out.sum().backward()
