# Node hooks: register_prehook(fn(grad_outputs)) and register_hook(fn(grad_inputs, grad_outputs)); tuples in, tuples out
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2


def pre(grad_outputs):
    print("pre", type(grad_outputs).__name__, grad_outputs)


def post(grad_inputs, grad_outputs):
    print("post", grad_inputs, grad_outputs)


h1 = b.grad_fn.register_prehook(pre)
h2 = b.grad_fn.register_hook(post)
print(type(h1))
b.sum().backward(retain_graph=True)
print(a.grad)
h1.remove()
h2.remove()

a.grad = None
h = b.grad_fn.register_prehook(lambda go: (go[0] * 3,))
b.sum().backward(retain_graph=True)
print("prehook x3:", a.grad)
h.remove()

a.grad = None
h = b.grad_fn.register_hook(lambda gi, go: (gi[0] * 10, None))
b.sum().backward(retain_graph=True)
print("hook x10:", a.grad)
h.remove()

a.grad = None
h1 = b.grad_fn.register_prehook(lambda go: (go[0] + 1,))
h2 = b.grad_fn.register_prehook(lambda go: print("second prehook sees", go))
ht = b.register_hook(lambda g: print("tensor hook sees", g))
b.sum().backward(retain_graph=True)
print(a.grad)
h1.remove(); h2.remove(); ht.remove()

acc = b.grad_fn.next_functions[0][0]
hp = acc.register_prehook(lambda go: print("AccumulateGrad prehook", go))
hh = acc.register_hook(lambda gi, go: print("AccumulateGrad hook", gi, go))
a.grad = None
b.sum().backward(retain_graph=True)
hp.remove(); hh.remove()
hp = acc.register_prehook(lambda go: (go[0] * 100,))
a.grad = None
b.sum().backward()
print(a.grad)

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y * 3
y.grad_fn.register_prehook(lambda go: print("y prehook", go))
y.grad_fn.register_hook(lambda gi, go: print("y hook", gi, go))
print(torch.autograd.grad(z.sum(), y, retain_graph=True))
print(torch.autograd.grad(z.sum(), x))
