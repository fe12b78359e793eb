# What a Node hook may return: PyTorch's errors for the wrong type, length, None slot, dtype and size
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a * 2


def attempt(register, hook):
    handle = register(hook)
    try:
        b.sum().backward(retain_graph=True)
        print("ok", a.grad)
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
    handle.remove()
    a.grad = None


attempt(b.grad_fn.register_hook, lambda gi, go: [gi[0], None])
attempt(b.grad_fn.register_hook, lambda gi, go: gi[0])
attempt(b.grad_fn.register_hook, lambda gi, go: (gi[0],))
attempt(b.grad_fn.register_hook, lambda gi, go: (gi[0], gi[0]))
attempt(b.grad_fn.register_hook, lambda gi, go: (None, None))
attempt(b.grad_fn.register_hook, lambda gi, go: ("x", None))
attempt(b.grad_fn.register_prehook, lambda go: go[0] * 3)
attempt(b.grad_fn.register_prehook, lambda go: ())
attempt(b.grad_fn.register_prehook, lambda go: (torch.ones(2),))
attempt(b.grad_fn.register_prehook, lambda go: (go[0].double(),))
attempt(b.grad_fn.register_prehook, lambda go: (5,))


def named_hook(go):
    return (go[0][:1],)


attempt(b.grad_fn.register_prehook, named_hook)
attempt(b.register_hook, lambda g: g.double())
acc = b.grad_fn.next_functions[0][0]
attempt(acc.register_hook, lambda gi, go: (go[0],))
try:
    b.grad_fn.register_hook()
except TypeError as e:
    print(type(e).__name__, e)
b.grad_fn.register_hook(5)
b.sum().backward()
