import torch

w = torch.tensor([2.0, 0.5], requires_grad=True)
n = torch.tensor([[3, 1], [0, -2]])
n[...] = w  # an integer tensor cannot get a history
print(n, n.grad_fn, n.requires_grad, n._version)
b = torch.tensor([[False, True], [False, False], [False, False]])
b[1:] = w
print(b, b.grad_fn, b.requires_grad, b._version)
i = torch.zeros(3, dtype=torch.long)
i.copy_(torch.ones(3, requires_grad=True))
print(i.grad_fn, i.requires_grad)

x = torch.tensor([[2.0, 1.84, -1.49], [-2.05, -1.0, -1.02]], requires_grad=True)
y = x[::2] * 1
z = y * y
y[...] = x[1:]
print(y.grad_fn.name(), type(y.grad_fn).__name__)
try:
    z.sum().backward()
except RuntimeError as e:
    print(e)

# fill_ with a tensor value records even on an integer tensor (copy_ does not)
s = torch.tensor(2.03, dtype=torch.float64, requires_grad=True)
m = torch.zeros(1, 3, dtype=torch.long)
m[0:] = s
print(m, type(m.grad_fn).__name__, [type(f).__name__ for f, _ in m.grad_fn.next_functions[1:]])
m = torch.zeros(2, 3, dtype=torch.long)
m[1:] = s
print(m, type(m.grad_fn).__name__)
