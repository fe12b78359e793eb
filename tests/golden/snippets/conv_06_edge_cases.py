# Pooling edge cases (NaN, -inf with padding, ceil mode, dilation), integer inputs, freed graphs, 1-D convs
import torch
import torch.nn as nn
import torch.nn.functional as F

nan, inf = float("nan"), float("inf")
x = torch.tensor([[[[1., nan, 3., 2.],
                    [nan, 0., 1., 1.],
                    [-inf, -inf, 2., 5.],
                    [-inf, -inf, 5., 4.]]]], requires_grad=True)
out, idx = F.max_pool2d(x, 2, return_indices=True)
print(out)
print(idx)
out, idx = F.max_pool2d(x, 2, padding=1, return_indices=True)
print(out)
print(idx)
out, idx = F.max_pool2d(torch.full((1, 1, 3, 3), -inf), 3, stride=1, padding=1, return_indices=True)
print(idx)
y = torch.arange(49.).view(1, 7, 7)
out, idx = F.max_pool2d(y, 2, stride=3, padding=1, dilation=2, ceil_mode=True, return_indices=True)
print(out)
print(idx)
print(F.avg_pool2d(y, 3, stride=3, padding=1, ceil_mode=True))
print(F.avg_pool2d(y, 3, stride=3, padding=1, ceil_mode=True, count_include_pad=False))

n = torch.tensor([[[[1, 5, 2], [3, 4, 8], [0, 7, 6]]]])
print(F.max_pool2d(n, 2, stride=1))
print(F.conv2d(n, torch.ones(2, 1, 2, 2, dtype=torch.long)))

w = torch.tensor([[[1., 0., -1.]], [[0.5, 0.5, 0.5]]], requires_grad=True)
s = torch.tensor([[0., 1., 4., 9., 16., 25., 36.]], requires_grad=True)
c = F.conv1d(s, w, padding=1, dilation=2)
print(c)
c.sum().backward()
print(s.grad)
print(w.grad)
try:
    c.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)

conv = nn.Conv1d(1, 2, 3, padding="same", bias=False)
with torch.no_grad():
    conv.weight.copy_(w)
print(conv(s))
print(conv(s).grad_fn.next_functions)
with torch.no_grad():
    print(conv(s).requires_grad)
