# unpack_hook may run several times: a hook that deletes its storage on first use breaks the second access
import torch

store = {}
counter = [0]


def pack_hook(tensor):
    counter[0] += 1
    name = f"t{counter[0]}"
    store[name] = tensor.clone()
    return name


def unpack_hook(name):
    return store.pop(name)


x = torch.ones(5, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = x.pow(2)
print(y.grad_fn._saved_self)
try:
    print(y.grad_fn._saved_self)
    print("Double access succeeded!")
except KeyError:
    print("Double access failed!")


class SelfDeletingName:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("deleting", self.name)
        store.pop(self.name, None)


def pack_kept(tensor):
    counter[0] += 1
    name = f"k{counter[0]}"
    store[name] = tensor.clone()
    return SelfDeletingName(name)


def unpack_kept(handle):
    return store[handle.name]


with torch.autograd.graph.saved_tensors_hooks(pack_kept, unpack_kept):
    y = x.pow(2)
print(y.grad_fn._saved_self)
print(y.grad_fn._saved_self)
print(sorted(store))
y.sum().backward()
print(sorted(store))
print(x.grad)
