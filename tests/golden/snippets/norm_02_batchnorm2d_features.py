# BatchNorm2d on feature maps, written the way blog posts check it by hand: the batch statistics,
# the normalised output against the formula, gradients, eval mode and the 4-D input check
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
x = torch.randn(4, 3, 5, 5, requires_grad=True)
bn = nn.BatchNorm2d(3)
print(bn)
out = bn(x)
print(out[0, 0, 0])
mean = x.mean(dim=(0, 2, 3))
var = x.var(dim=(0, 2, 3), unbiased=False)
print(mean, var)
print(bn.running_mean, bn.running_var)
manual = (x - mean[None, :, None, None]) / torch.sqrt(var[None, :, None, None] + bn.eps)
print(torch.allclose(out, manual, atol=1e-6))

target = torch.randn(4, 3, 5, 5)
loss = ((out - target) ** 2).mean()
loss.backward()
print(loss.item())
print(x.grad[1, 2, 3])
print(bn.weight.grad, bn.bias.grad)
print(out.grad_fn)

bn.eval()
print(bn.training, bn(x)[2, 1, 4])

r = F.batch_norm(x.detach(), torch.zeros(3), torch.ones(3), training=True, momentum=0.5)
print(r.std().item())
try:
    bn(torch.randn(3, 5))
except ValueError as e:
    print(e)
try:
    F.batch_norm(x, torch.zeros(4), torch.ones(3))
except RuntimeError as e:
    print(e)
print(nn.BatchNorm1d(10, affine=False, track_running_stats=False))
