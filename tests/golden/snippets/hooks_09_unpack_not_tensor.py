# unpack_hook must give back a Tensor; hooks skip the version check
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 1
with torch.autograd.graph.saved_tensors_hooks(lambda x: x.detach().clone(), lambda x: x):
    c = b.sin()
b.add_(1)
c.sum().backward()
print(a.grad)

with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x.tolist()):
    y = a.pow(2)
try:
    print(y.grad_fn._saved_self)
except TypeError as e:
    print(type(e).__name__, e)
y.sum().backward()
