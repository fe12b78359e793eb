# Module backward hooks: full hooks, pre-hooks, replacing gradients, and the deprecated kind
import torch
import torch.nn as nn

lin = nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1., 2.], [3., 4.]]))
    lin.bias.zero_()


def pre(module, grad_output):
    print("pre:", grad_output)
    return (grad_output[0] * 10,)


def full(module, grad_input, grad_output):
    print("full:", grad_input, grad_output)
    return (grad_input[0] + 1,)


h1 = lin.register_full_backward_pre_hook(pre)
h2 = lin.register_full_backward_hook(full)
x = torch.ones(1, 2, requires_grad=True)
out = lin(x)
print(out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())
out.sum().backward()
print(x.grad, lin.weight.grad)
h1.remove()
h2.remove()
print(lin(x).grad_fn)

# a first layer whose input needs no grad: the hook fires on the outputs, with a warning
first = nn.Linear(2, 1)
first.register_full_backward_hook(lambda m, gin, gout: print("first layer:", gin, [g.shape for g in gout]))
first(torch.ones(3, 2)).sum().backward()


class Pair(nn.Module):
    def forward(self, a, b, scale):
        return a * b * scale, a + 1


pair = Pair()
pair.register_full_backward_hook(lambda m, gin, gout: print("pair:", gin, gout))
a = torch.tensor([1., 2.], requires_grad=True)
p, q = pair(a, torch.tensor([3., 4.]), 2.0)
(p.sum() + 2 * q.sum()).backward()
print(a.grad)

for hook in (lambda m, gin, gout: (gin[0], gin[0]),):
    bad = nn.Linear(2, 2)
    bad.register_full_backward_hook(hook)
    try:
        bad(torch.ones(1, 2, requires_grad=True)).sum().backward()
    except RuntimeError as e:
        print(type(e).__name__, e)
try:
    lin.register_backward_hook(full)
    lin.register_full_backward_hook(full)
except RuntimeError as e:
    print(type(e).__name__, e)

old = nn.Linear(2, 1)
old.register_backward_hook(lambda m, gin, gout: print("old:", [None if g is None else g.shape for g in gin]))
old(torch.ones(4, 2, requires_grad=True)).sum().backward()
