# Seed note 004: detach with a freshly built graph: u = y.detach() * z.
import torch

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
y = x * x
z = w * w
u = y.detach() * z
print(u)
u.backward()
print(x.grad) # None: no path from u to x
print(w.grad) # 24 = 2w * y
print(y.detach().requires_grad, y.detach().is_leaf)
