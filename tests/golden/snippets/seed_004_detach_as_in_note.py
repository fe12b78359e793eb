# Seed note 004: the detach example pasted top to bottom. The second
# backward reuses z's graph, which the first backward already freed.
import torch

x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(3.0, requires_grad=True)
y = x * x # y = x²
z = w * w # z = w²
u = y * z # u = x² w²
u.backward()
print(x.grad, w.grad)
u = y.detach() * z
u.backward()
