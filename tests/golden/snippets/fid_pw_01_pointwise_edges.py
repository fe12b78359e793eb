import torch


def attempt(f):
    try:
        r = f()
        print(r.dtype, r)
    except Exception as e:
        print(type(e).__name__, e)


# sign of NaN is 0; step functions pass a zero gradient even where it is inf or NaN
print(torch.tensor([float('nan'), -1.5, 0.0, 2.0]).sign())
x = torch.tensor([1.5, 0.2], requires_grad=True)
(torch.floor(1 / x) ** 0.5).backward(torch.full((2,), 0.5))
print(x.grad)
# relu passes the gradient through a NaN input
x = torch.tensor([-1.0, 0.0, 2.0, float('nan')], requires_grad=True)
torch.relu(x).sum().backward()
print(x.grad)
# pow: exactly 0 where the exponent is 0 (no 0 * inf), log in the promoted dtype
x = torch.tensor([float('inf'), 0.0, -2.4], requires_grad=True)
y = x.abs() ** x
(y * y).sum().backward()
print(x.grad)
w = torch.tensor([1.0, 0.0, 2.0], requires_grad=True)
g, = torch.autograd.grad((w ** w).sum(), w, create_graph=True)
print(g, g.grad_fn.name(), [f[0].name() for f in g.grad_fn.next_functions])
g, = torch.autograd.grad((w ** 3).sum(), w, create_graph=True)
print(g, g.grad_fn.name(), g.grad_fn.next_functions[1][0].name())
g, = torch.autograd.grad((2.0 ** w).sum(), w, create_graph=True)
print(g, g.grad_fn.next_functions[1][0].name())
s = torch.tensor([[-2.29, -1.0], [1.58, -1.89]], dtype=torch.float64, requires_grad=True)
(torch.tensor([[1, 3], [2, 1]]) ** s.std()).exp().sum().backward()
print(s.grad)
# integer powers: negative exponents as PyTorch's integer pow
attempt(lambda: 3 ** torch.tensor([4, -2, 1]))
attempt(lambda: torch.tensor([2, 1, -1, -1, 0]) ** torch.tensor([-1, -5, -2, -3, -1]))
attempt(lambda: torch.tensor([0, 2]) ** -1)
attempt(lambda: torch.tensor([True]) ** torch.tensor([-2]))
# add/sub with alpha and bools
b = torch.tensor([True, False])
i = torch.tensor([1, 2])
attempt(lambda: torch.add(b, b, alpha=2))
attempt(lambda: torch.add(i, i, alpha=2.5))
attempt(lambda: torch.add(i, i, alpha=True))
attempt(lambda: torch.sub(i, i, alpha=3))
attempt(lambda: b - b)
attempt(lambda: b - 1)
attempt(lambda: 1 - b)
attempt(lambda: -b)
