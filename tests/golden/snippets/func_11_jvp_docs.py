import torch
from torch.func import jvp

# torch.func.jvp docs examples
torch.manual_seed(0)
x = torch.randn([])
f = lambda x: x * torch.tensor([1., 2., 3])
value, grad = jvp(f, (x,), (torch.tensor(1.),))
print(value, grad)
print(torch.allclose(value, f(x)))
print(torch.allclose(grad, torch.tensor([1., 2, 3])))

def f(x, y):
    return x * y

x = torch.randn(5)
y = torch.randn(5)
output, jvp_out = jvp(f, (x, y), (torch.ones(5), torch.ones(5)))
print(output)
print(jvp_out)
print(torch.allclose(jvp_out, x + y))

out, t = jvp(torch.sin, (torch.tensor([0., 1., 2.]),), (torch.tensor([1., 1., 1.]),))
print(out, t)
out, t, aux = jvp(lambda x: (x.exp(), x * 2), (torch.tensor([0., 1.]),), (torch.tensor([1., 2.]),), has_aux=True)
print(out, t, aux)
out, t = jvp(lambda x: {"s": x.sin(), "c": [x.cos()]}, (torch.tensor([0.5]),), (torch.tensor([2.]),))
print(out, t)
out, t = jvp(lambda x, y: x * 2, (torch.tensor([1.]), torch.tensor([3.])), (torch.tensor([1.]), torch.tensor([1.])))
print(out, t)
