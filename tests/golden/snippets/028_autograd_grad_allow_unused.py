import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
out = (a * 2).sum()
print(torch.autograd.grad(out, [a, b], allow_unused=True, retain_graph=True))
print(torch.autograd.grad(out, [a, b], allow_unused=True,
                          materialize_grads=True))
