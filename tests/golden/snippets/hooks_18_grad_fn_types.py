# type(grad_fn), reprs, name(), metadata, next_functions (read-only) and calling a node directly
import torch
from torch.autograd import Function


class MyFn(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 3

    @staticmethod
    def backward(ctx, grad):
        print("MyFn.backward", grad)
        return grad * 3


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * a
m = MyFn.apply(a)
acc = b.grad_fn.next_functions[0][0]
print(type(b.grad_fn), type(acc), type(m.grad_fn))
print(b.grad_fn, acc, m.grad_fn)
print(b.grad_fn.name(), acc.name(), m.grad_fn.name())
print(b.grad_fn.metadata, type(b.grad_fn.next_functions), b.grad_fn.requires_grad)
b.grad_fn.metadata["tag"] = "square"
print(b.grad_fn.metadata)
print(isinstance(b.grad_fn, torch.autograd.graph.Node), isinstance(m.grad_fn, torch.autograd.graph.Node),
      isinstance(acc, torch.autograd.graph.Node))
try:
    b.grad_fn.next_functions = ()
except AttributeError as e:
    print(type(e).__name__, e)
print(b.grad_fn(torch.ones(2)))
print(a.exp().grad_fn(torch.ones(2)))
print((a * 3).grad_fn(torch.ones(2)))
print(a.sum().grad_fn(torch.tensor(1.0)))
print(acc(torch.ones(2)), a.grad)
print(m.grad_fn.apply(torch.ones(2)))
for call in (lambda: b.grad_fn(torch.ones(2), torch.ones(2)), lambda: b.grad_fn(1.0),
             lambda: b.grad_fn.apply(torch.ones(2)), lambda: m.grad_fn(torch.ones(2))):
    try:
        call()
    except (TypeError, AttributeError) as e:
        print(type(e).__name__, e)
b.sum().backward()
b.grad_fn(torch.ones(2))
