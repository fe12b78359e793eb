# Views whose autograd meaning is ambiguous: a multi-output view taken before its base required grad,
# and saved no_grad views whose base was then written, raise PyTorch's view errors (before the
# version-counter error) when written or differentiated.
import torch
v0 = torch.tensor([[-1.02, -0.17], [2.07, 1.0]], requires_grad=True)
with torch.no_grad():
    v2 = v0 - v0
v4 = torch.chunk(v2, 2)[-1]
v2.requires_grad_()
print(v4.requires_grad, v4.grad_fn, v4.is_leaf)
try: v4.mul_(2)
except RuntimeError as e: print(e)
v0 = torch.tensor(0.5, requires_grad=True)
with torch.no_grad():
    v3 = v0.flatten()
v4 = 2 ** v3
with torch.no_grad():
    v0 += True
try: (v4.mean().unsqueeze(-1)[-1] ** 2).sum().backward(retain_graph=True)
except RuntimeError as e: print(e)
v0 = torch.tensor([[-2.92, 2.72, 2.46], [-1.7, 2.03, -2.74]], dtype=torch.float64, requires_grad=True)
v1 = v0.flip(1)
with torch.no_grad():
    v3 = v1.t()
v6 = v3.view_as(v3)
v8 = torch.std(v6, -2, keepdim=True)
with torch.no_grad():
    v3.zero_()
try: v8.exp().sum().backward()
except RuntimeError as e: print(e)
