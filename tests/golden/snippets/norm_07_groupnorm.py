# GroupNorm as diffusion-model UNet tutorials use it (32 channels in 8 groups), checked against the
# formula by hand, with gradients, the module's repr and the divisibility error
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(5)
x = torch.randn(2, 32, 4, 4, requires_grad=True)
gn = nn.GroupNorm(8, 32)
print(gn)
y = gn(x)
print(y[1, 5, 2], y.grad_fn)
groups = x.reshape(2, 8, -1)
manual = ((groups - groups.mean(-1, keepdim=True)) / torch.sqrt(groups.var(-1, unbiased=False, keepdim=True) + 1e-5))
print(torch.allclose(y, manual.reshape(x.shape), atol=1e-5))
(y * torch.linspace(-1, 1, 16).reshape(4, 4)).sum().backward()
print(x.grad[0, 3, 1])
print(gn.bias.grad[:6])
print(F.group_norm(torch.arange(8.).reshape(1, 4, 2), 2))
try:
    nn.GroupNorm(3, 32)
except ValueError as e:
    print("ValueError:", e)
