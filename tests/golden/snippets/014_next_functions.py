import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([3.0, 4.0])
y = x * c
z = y.sum() + x[0]
print(z.grad_fn.name())
for fn, idx in z.grad_fn.next_functions:
    print(" ", fn.name(), idx)
print([(type(f).__name__ if f is not None else None, i)
       for f, i in y.grad_fn.next_functions])
acc = y.grad_fn.next_functions[0][0]
print(type(acc).__name__, acc.variable is x)
print(y.grad_fn.next_functions)
print(x.grad_fn, c.grad_fn)
