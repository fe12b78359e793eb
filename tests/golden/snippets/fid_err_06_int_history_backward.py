import torch


def attempt(name, f):
    try:
        print(name, f())
    except Exception as e:
        print(name, type(e).__name__, e)


# An integer tensor gets history from an in-place write of a tensor that requires grad
# (FillBackward3); a float op using it hands it a gradient that PyTorch's engine asserts on.
x = torch.tensor(-1.24, requires_grad=True)
a = torch.tensor([[[-2, -1, -2]], [[0, 1, 1]]]) * 2
a[...] = x ** 3
print(a.dtype, a.requires_grad, a.grad_fn.name())
y = x.detach() ** a
print(y.grad_fn.name(), [f[0] and f[0].name() for f in y.grad_fn.next_functions])
attempt("backward(gradient)", lambda: y.backward(torch.full_like(y, 0.5)))
attempt("mul", lambda: (a * x).sum().backward())
attempt("float", lambda: torch.autograd.grad(a.float().sum(), [x]))
print(x.grad)
