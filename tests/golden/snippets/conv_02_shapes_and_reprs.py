# Output shapes of conv and pooling for stride, padding, dilation, groups; module reprs
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.ones(2, 4, 11, 9)
for kwargs in [dict(), dict(stride=2), dict(padding=1), dict(padding=(2, 0)), dict(dilation=2),
               dict(stride=(2, 3), padding=1, dilation=(1, 2)), dict(padding="same"), dict(padding="valid")]:
    w = torch.ones(6, 4, 3, 3)
    print(kwargs, tuple(F.conv2d(x, w, **kwargs).shape))
print(tuple(F.conv2d(x, torch.ones(6, 2, 3, 3), groups=2).shape))
print(tuple(F.conv2d(x, torch.ones(4, 1, 3, 3), groups=4).shape))
print(tuple(F.conv2d(torch.ones(4, 7, 7), torch.ones(3, 4, 3, 3)).shape))
print(tuple(F.conv1d(torch.ones(2, 3, 10), torch.ones(5, 3, 4), stride=3).shape))
print(tuple(F.conv1d(torch.ones(3, 10), torch.ones(5, 3, 3), padding="same").shape))

for k, s, p, c in [(2, None, 0, False), (3, 2, 1, False), (3, 2, 1, True), ((2, 3), 1, (1, 0), False)]:
    print(k, s, p, c, tuple(F.max_pool2d(x, k, s, p, ceil_mode=c).shape), tuple(F.avg_pool2d(x, k, s, p, c).shape))
print(tuple(F.adaptive_avg_pool2d(x, (3, 4)).shape), tuple(F.adaptive_avg_pool2d(x, 1).shape))
print(tuple(F.adaptive_avg_pool2d(x, (None, 2)).shape))

print(nn.Conv2d(1, 6, 5))
print(nn.Conv2d(4, 6, (3, 5), stride=2, padding=1, dilation=2, groups=2, bias=False))
print(nn.Conv2d(4, 6, 3, padding="same"))
print(nn.Conv1d(2, 6, 5, padding="valid"))
print(nn.Conv1d(2, 6, 5, stride=2, padding=2))
print(nn.MaxPool2d(2))
print(nn.MaxPool2d((2, 3), stride=1, padding=1, ceil_mode=True, return_indices=True))
print(nn.AvgPool2d(3, 2, 1, count_include_pad=False))
print(nn.AdaptiveAvgPool2d((5, 7)))
print(nn.Flatten())
c = nn.Conv2d(4, 6, 3, groups=2)
print(c.weight.shape, c.bias.shape, c.in_channels, c.out_channels, c.kernel_size, c.stride, c.padding, c.dilation,
      c.groups, c.padding_mode)
print(nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8 * 4 * 4, 10)))
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
print(tuple(model(torch.ones(5, 3, 8, 8)).shape))
