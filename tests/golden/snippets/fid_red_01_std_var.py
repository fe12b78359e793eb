import torch

# std's gradient where the std is 0 is masked to 0; var over dof <= 0 gives inf/NaN, never an error
x = torch.ones(2, 3, requires_grad=True)
x.std().backward()
print(x.grad)
x = torch.full((3, 1), 1.5, requires_grad=True)
print(torch.autograd.grad(torch.std(x, -2, keepdim=True).sum(), x))
x = torch.tensor([[0.31, 2.34], [-2.49, -1.78]], requires_grad=True)
((x - x).std().sqrt() ** 2).backward()
print(x.grad)
x = torch.tensor(2.0, requires_grad=True)
v = x.var()
v.backward()
print(v, x.grad)
x = torch.tensor([[2.0, 3.0]], requires_grad=True)
v = x.std(0, correction=2)
v.sum().backward()
print(v, x.grad)
# double backward: (2 / dof) * grad * (x - mean), as FunctionsManual writes it
x = torch.tensor([[1., 2., 3.], [4., 5., 7.]], dtype=torch.float64, requires_grad=True)
for f in (lambda t: t.var(), lambda t: t.std(1), lambda t: t.var(0, keepdim=True), lambda t: t.std(unbiased=False)):
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    print(g, g.grad_fn.name(), [n[0] and n[0].name() for n in g.grad_fn.next_functions])
    print(torch.autograd.grad((g * g).sum(), x)[0].round(decimals=6) + 0.0)  # float noise aside
# integer inputs are refused
try:
    torch.tensor([1, 2]).std()
except RuntimeError as e:
    print("RuntimeError", e)
