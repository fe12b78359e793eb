# Node hooks on multi-output nodes, custom Function nodes, with retain_grad and tensor hooks, and under create_graph
import torch
from torch.autograd import Function
x = torch.tensor([1., 2., 3., 4.], requires_grad=True)
parts = x.split(2)
node = parts[0].grad_fn
node.register_prehook(lambda go: print("split pre", go) or (go[0] * 2, go[1]))
node.register_hook(lambda gi, go: print("split post", gi, go))
(parts[0].sum() * 3).backward(retain_graph=True)
print(x.grad)
x.grad = None
(parts[0].sum() + parts[1].sum()).backward()
print(x.grad)

class Sq(Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return 2 * a * g
a = torch.tensor([1., 2.], requires_grad=True)
y = Sq.apply(a)
y.grad_fn.register_prehook(lambda go: print("fn pre", go))
y.grad_fn.register_hook(lambda gi, go: print("fn post", gi, go) or (gi[0] + 100,))
y.sum().backward()
print(a.grad)
b = a * 1
b.retain_grad()
b.register_hook(lambda g: print("tensor hook", g) or g * 2)
b.grad_fn.register_prehook(lambda go: print("node pre", go) or (go[0] + 1,))
(b * 3).sum().backward()
print(b.grad, a.grad)
# hooks with create_graph
a.grad = None
c = a * a
c.grad_fn.register_hook(lambda gi, go: print("cg post", gi[0].requires_grad, gi[0].grad_fn) )
g, = torch.autograd.grad(c.sum(), a, create_graph=True)
print(g)
# node hook on node whose grads are all None? (unused output of unbind)
u = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
r0, r1 = u.unbind(0)
r0.grad_fn.register_prehook(lambda go: print("unbind pre", go))
r0.sum().backward()
print(u.grad)
