# allow_mutation_on_saved_tensors: saved tensors are cloned before an in-place write, so backward sees the saved values
import torch
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    a = torch.ones(2, 3, requires_grad=True)
    b = a.clone()
    out = (b**2).sum()
    b.sin_()
    out.sum().backward()
    print(a.grad)
    print(type(ctx))
    c = a.clone()
    d = c.exp()
    v = c[0]
    v.mul_(3)
    d.sum().backward()
    print(a.grad)
try:
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        with torch.autograd.graph.allow_mutation_on_saved_tensors():
            pass
except RuntimeError as e:
    print(type(e).__name__, e)
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    a = torch.ones(2, requires_grad=True)
    y = (a * a).sum()
try:
    y.backward()
except Exception as e:
    print(type(e).__name__, e)
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    a = torch.ones(2, requires_grad=True)
    b = a * 1
    y = (b * b).sum()
    b.add_(1)
    print(y.grad_fn.next_functions[0][0]._saved_self)
    y.backward()
    print(a.grad)
b = torch.ones(2, requires_grad=True) * 1
y = (b * b).sum()
b.add_(1)
y.backward()
