# torch.autograd.graph.register_multi_grad_hook, from its docs
import torch

torch.manual_seed(0)
a = torch.rand(2, 3, requires_grad=True)
b = torch.rand(2, 3, requires_grad=True)
c = a * b
d = a * b


def fn(grads):
    print([g is not None for g in grads])


handle = torch.autograd.graph.register_multi_grad_hook((a, b, c, d), fn)
c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
(c + d).sum().backward(retain_graph=True)
handle.remove()
c.sum().backward(retain_graph=True)
print("removed")


def first(grad):
    print("first grad to arrive:", grad.shape)


torch.autograd.graph.register_multi_grad_hook((a, b), first, mode="any")
(a * 2).sum().backward()
print(a.grad)
