# register_multi_grad_hook (mode="any"): the first gradient computed, once per backward pass
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
calls = []
handle = torch.autograd.graph.register_multi_grad_hook((a, b), lambda g: calls.append(g), mode="any")
(a * b).sum().backward()
print(calls)
(b * 2).sum().backward()
print(calls)
(a * b).sum().backward(inputs=[b])
print(calls)
handle.remove()
(a * b).sum().backward()
print(len(calls))
h2 = torch.autograd.graph.register_multi_grad_hook((a, torch.ones(2)), lambda g: print("any", g), mode="any")
(a * 5).sum().backward()
try:
    torch.autograd.grad((a * b).sum(), [a])
except RuntimeError as e:
    print(type(e).__name__, e)
hook_all = torch.autograd.graph.register_multi_grad_hook((a, b), print)
torch.autograd.grad((a * b).sum(), [a])
