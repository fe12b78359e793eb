import torch
from torch.func import grad, grad_and_value, jacrev, vjp

# Inputs that require grad keep their history: the result can be backpropagated
x = torch.tensor([1., 2., 3.], requires_grad=True)
g = grad(lambda x: (x ** 3).sum())(x)
print(g)
g.sum().backward()
print(x.grad)

y = torch.tensor([1., 2., 3.], requires_grad=True)
x = torch.tensor([0.5, 0.5, 0.5])
g = grad(lambda x: (x * y).sum())(x)
print(g)
g2 = grad(lambda x: (x ** 2 * y).sum())(x)
print(g2)
g2.sum().backward()
print(y.grad)

w = torch.tensor([2., -1.], requires_grad=True)
J = jacrev(lambda w: w.exp() * w)(w)
print(J.requires_grad)
J.sum().backward()
print(w.grad)

# Results of inputs that do not require grad have no history
x = torch.tensor([1., 2.])
print(grad(lambda x: (x ** 3).sum())(x).requires_grad)
print(jacrev(torch.exp)(x).requires_grad)
out, fn = vjp(torch.exp, x)
print(out.requires_grad, fn(torch.ones(2))[0].requires_grad)
print(grad_and_value(lambda x: (x ** 2).sum())(x))

# torch.no_grad outside a transform does not change it; inside f it does
def f(x):
    with torch.no_grad():
        c = x ** 2
    return (x - c).sum()
print(grad(f)(x))
with torch.no_grad():
    print(grad(lambda x: (x ** 2).sum())(x))
