# grad_fn._raw_saved_*: SavedTensor objects with register_hooks(pack, unpack), and their errors
import torch


def pack(x):
    print("pack", x)
    return x.numpy().tolist()


def unpack(x):
    print("unpack", x)
    return torch.tensor(x)


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = a.pow(2)
raw = y.grad_fn._raw_saved_self
print(type(raw).__name__)
print(raw.data, raw.unpack_hook)
print(raw.register_hooks(pack, unpack))
print(raw.data, raw.unpack_hook is unpack)
print(y.grad_fn._saved_self)
try:
    raw.register_hooks(pack, unpack)
except RuntimeError as e:
    print(type(e).__name__, e)

m = a * torch.ones(3)
try:
    m.grad_fn._raw_saved_self.register_hooks(pack, unpack)
except RuntimeError as e:
    print(type(e).__name__, e)
print(m.grad_fn._raw_saved_self.unpack(), m.grad_fn._saved_self)

e = a.exp()
e.grad_fn._raw_saved_result.register_hooks(lambda x: x * 10, lambda x: x / 10)
print(e.grad_fn._raw_saved_result.data)
print(e.grad_fn._saved_result)
y.sum().backward()
print(a.grad)
print(raw.data)
try:
    raw.unpack()
except RuntimeError as e:
    print(type(e).__name__, e)
z = a.pow(3)
z.sum().backward()
z.grad_fn._raw_saved_self.register_hooks(pack, unpack)
