# Saved tensors hooks: what each op packs, in PyTorch's order, and when unpack runs
import torch


def pack_hook(x):
    print("Packing", x)
    return x


def unpack_hook(x):
    print("Unpacking", x)
    return x


a = torch.ones(3, requires_grad=True)
b = torch.ones(3, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
    z = torch.exp(a)
    w = a / b
    p = a ** b
    q = a.pow(3)
    r = a * 2
print("-- backward y")
y.sum().backward(retain_graph=True)
print("-- backward z")
z.sum().backward(retain_graph=True)
print("-- backward w, p, q, r")
(w.sum() + p.sum() + q.sum() + r.sum()).backward()
print(a.grad)
print(b.grad)
