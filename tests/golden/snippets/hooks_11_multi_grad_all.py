# register_multi_grad_hook (mode="all"): one call per backward, after every gradient the pass computes
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
c = a * b
d = a * b


def fn(grads):
    print([g is not None for g in grads])
    print(grads)


handle = torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)
print(type(handle))
c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
(c.sum() + d.sum()).backward(retain_graph=True)
handle.remove()
c.sum().backward(retain_graph=True)
print("removed: no call")

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
h = torch.autograd.graph.register_multi_grad_hook((x, y), lambda gs: print("all", gs))
hx = x.register_hook(lambda g: g * 10)
(y * y).sum().backward()
print(x.grad)
try:
    torch.autograd.graph.register_multi_grad_hook((a, b), fn, mode="some")
except ValueError as e:
    print(type(e).__name__, e)
torch.autograd.graph.register_multi_grad_hook((a, torch.ones(2)), fn)
