# Gated and parametric activations: GLU halves a dimension, PReLU learns its slopes
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[1.0, -2.0, 3.0, 0.5], [0.0, 1.0, -1.0, 2.0]], requires_grad=True)
glu = nn.GLU()
y = glu(x)
print(glu, y)
y.sum().backward()
print(x.grad)
print(F.glu(x, dim=0).grad_fn._saved_dim, y.grad_fn._saved_dim)

prelu = nn.PReLU(num_parameters=3, init=0.1)
print(prelu, prelu.weight)
inp = torch.tensor([[-1.0, 2.0, -3.0], [4.0, -5.0, -6.0]], requires_grad=True)
out = prelu(inp)
print(out, [f[0].name() for f in out.grad_fn.next_functions])
loss = (out ** 2).mean()
loss.backward()
print(inp.grad)
print(prelu.weight.grad)
print(list(prelu.state_dict().items()))

opt = torch.optim.SGD(prelu.parameters(), lr=0.5)
opt.step()
print(prelu.weight)

m = nn.Sequential(nn.Linear(3, 4), nn.PReLU(), nn.Linear(4, 2), nn.Softmin(dim=1))
print(m)
with torch.no_grad():
    for p in m.parameters():
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape))
print(m(torch.tensor([[1.0, 2.0, 3.0]])))

try:
    F.glu(torch.ones(2, 3))
except RuntimeError as e:
    print("RuntimeError", e)
F.prelu(torch.ones(2, 3), torch.ones(2))
