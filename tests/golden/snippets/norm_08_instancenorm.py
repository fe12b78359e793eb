# InstanceNorm as style-transfer and 1-D signal tutorials use it: per-sample statistics, gradients,
# running statistics averaged over the batch, unbatched input and the errors
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(2)
x = torch.randn(2, 3, 5, 5, requires_grad=True)
inorm = nn.InstanceNorm2d(3)
print(inorm, list(inorm.state_dict().keys()))
y = inorm(x)
print(y[1, 2, 0], y.grad_fn, y.grad_fn.next_functions[0][0].name())
(y * torch.linspace(-1, 1, 25).reshape(5, 5)).sum().backward()
print(x.grad[0, 1, 2])
aff = nn.InstanceNorm1d(3, affine=True, track_running_stats=True)
seq = torch.randn(4, 3, 7)
for _ in range(2):
    out = aff(seq)
print(aff, aff.running_mean, aff.running_var, aff.num_batches_tracked)
aff.eval()
print(aff(seq[:1])[0, :, :3])
print(nn.InstanceNorm1d(3)(torch.randn(3, 6)).shape)
print(F.instance_norm(torch.arange(8.).reshape(1, 2, 4)))
try:
    F.instance_norm(torch.randn(2, 3, 1))
except ValueError as e:
    print("ValueError:", e)
try:
    nn.InstanceNorm2d(3, affine=True)(torch.randn(1, 4, 3, 3))
except ValueError as e:
    print("ValueError:", e)
