# The output of pack_hook can be any Python object: a scaled tensor, a list index, a tuple, a string
import torch

x = torch.tensor([1.0, -2.0, 3.0, 0.5, 4.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda x: x * 4, lambda x: x / 4):
    y = torch.pow(x, 2)
print(y.grad_fn._raw_saved_self.data)
y.sum().backward()
print(x.grad.equal(2 * x), x.grad)

storage = []


def pack(x):
    storage.append(x)
    return len(storage) - 1


def unpack(i):
    return storage[i]


x.grad = None
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x * x
print(y.grad_fn._raw_saved_self.data, y.grad_fn._raw_saved_other.data, len(storage))
y.sum().backward()
print(x.grad.equal(2 * x))


def pack_pair(x):
    delta = torch.tensor([0.5, 0.25, 0.125, 1.0, 2.0])
    return x - delta, lambda t: t + delta


def unpack_pair(packed):
    t, f = packed
    return f(t)


x.grad = None
with torch.autograd.graph.saved_tensors_hooks(pack_pair, unpack_pair):
    y = x * x
y.sum().backward()
print(torch.allclose(x.grad, 2 * x), x.grad)

x.grad = None
with torch.autograd.graph.saved_tensors_hooks(lambda x: repr(x), lambda x: eval("torch." + x)):
    y = x * x
print(y.grad_fn._raw_saved_self.data)
y.sum().backward()
print(torch.all(x.grad - 2 * x <= 1e-4))
