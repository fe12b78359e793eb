# A pack hook may not modify its input in place
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 1


def pack(x):
    print("packing version", x._version)
    return x


with torch.autograd.graph.saved_tensors_hooks(pack, lambda x: x):
    c = b * b
print(c.grad_fn._saved_self._version)


def bad_pack(x):
    x.detach().mul_(2)
    return x


with torch.autograd.graph.saved_tensors_hooks(bad_pack, lambda x: x):
    d = b * b
