import torch

# maximum/minimum: ties split the gradient; where a NaN makes both comparisons false, both get it all
v = torch.tensor([[float('nan'), 2.92, 2.4]], requires_grad=True)
torch.maximum(v, v).backward(torch.full((1, 3), 0.5))
print(v.grad)
a = torch.tensor([1.0, float('nan'), 2.0, 3.0], requires_grad=True)
b = torch.tensor([1.0, 0.5, float('nan'), 1.0], requires_grad=True)
for f in (torch.maximum, torch.minimum):
    print(torch.autograd.grad(f(a, b).sum(), [a, b]))
# clamp's gradient is 0 outside the bounds, even where the incoming gradient is inf or NaN
x = torch.tensor([-1.429, 0.857, 0.0, float('nan')], dtype=torch.float64, requires_grad=True)
for f in (lambda: x.clamp(max=0), lambda: x.clamp_max(0), lambda: x.clamp_min(0.5), lambda: x.clamp(-1, 0.5)):
    y = f()
    g, = torch.autograd.grad((1 / (y - y)).sum(), x)
    print(y.grad_fn.name(), g)
g, = torch.autograd.grad((x.clamp(-1, 0.5) ** 2).sum(), x, create_graph=True)
print(g.grad_fn.name())
# remainder, fmod and floor division: their nodes and what backward does through them
x = torch.tensor([5.5, -3.0], requires_grad=True)
y = torch.tensor([2.0, 4.0], requires_grad=True)
for f in (lambda: x // 2, lambda: 5 // y, lambda: x // y, lambda: torch.div(x, y, rounding_mode='trunc'),
          lambda: x % y, lambda: x % 2, lambda: 5 % y, lambda: torch.fmod(x, y), lambda: torch.fmod(x, 2)):
    r = f()
    print(r, type(r.grad_fn).__name__, r.grad_fn.name(), len(r.grad_fn.next_functions))
    try:
        print(torch.autograd.grad(r.sum(), [x, y], allow_unused=True))
    except RuntimeError as e:
        print("RuntimeError", e)
