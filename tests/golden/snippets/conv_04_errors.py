# Error messages for wrong input dims, channels, kernel sizes and arguments
import torch
import torch.nn as nn
import torch.nn.functional as F

w = torch.ones(4, 3, 3, 3)
tries = [
    ("image without batch or channel", lambda: F.conv2d(torch.ones(28, 28), w)),
    ("5-D input", lambda: F.conv2d(torch.ones(1, 1, 3, 8, 8), w)),
    ("channels", lambda: F.conv2d(torch.ones(2, 1, 8, 8), w)),
    ("channels, unbatched", lambda: F.conv2d(torch.ones(5, 8, 8), w)),
    ("kernel bigger than input", lambda: F.conv2d(torch.ones(1, 3, 2, 2), w)),
    ("dilated kernel", lambda: F.conv2d(torch.ones(1, 3, 4, 4), w, dilation=2)),
    ("bias size", lambda: F.conv2d(torch.ones(1, 3, 8, 8), w, torch.ones(3))),
    ("groups", lambda: F.conv2d(torch.ones(1, 3, 8, 8), torch.ones(3, 3, 3, 3), groups=2)),
    ("weight dims", lambda: F.conv2d(torch.ones(1, 3, 8, 8), torch.ones(4, 3, 3))),
    ("padding string", lambda: F.conv2d(torch.ones(1, 3, 8, 8), w, padding="full")),
    ("same with stride", lambda: F.conv2d(torch.ones(1, 3, 8, 8), w, padding="same", stride=2)),
    ("negative padding", lambda: F.conv2d(torch.ones(1, 3, 8, 8), w, padding=-1)),
    ("zero stride", lambda: F.conv2d(torch.ones(1, 3, 8, 8), w, stride=0)),
    ("stride length", lambda: F.conv2d(torch.ones(1, 3, 8, 8), w, stride=(1, 1, 1))),
    ("double input", lambda: F.conv2d(torch.ones(1, 3, 8, 8, dtype=torch.float64), w)),
    ("double bias", lambda: F.conv2d(torch.ones(1, 3, 8, 8), w, torch.ones(4, dtype=torch.float64))),
    ("conv1d on an image", lambda: F.conv1d(torch.ones(1, 3, 8, 8), torch.ones(4, 3, 3))),
    ("Conv2d module on 2-D", lambda: nn.Conv2d(3, 4, 3)(torch.ones(8, 8))),
    ("Conv2d module channels", lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 1, 8, 8))),
    ("Conv2d groups", lambda: nn.Conv2d(3, 4, 3, groups=2)),
    ("Conv2d out groups", lambda: nn.Conv2d(4, 3, 3, groups=2)),
    ("Conv2d same stride", lambda: nn.Conv2d(4, 3, 3, padding="same", stride=2)),
    ("max_pool2d on 2-D", lambda: F.max_pool2d(torch.ones(8, 8), 2)),
    ("max_pool2d padding", lambda: F.max_pool2d(torch.ones(1, 3, 8, 8), 2, padding=2)),
    ("max_pool2d too small", lambda: F.max_pool2d(torch.ones(1, 3, 1, 1), 2)),
    ("max_pool2d zero stride", lambda: F.max_pool2d(torch.ones(1, 3, 8, 8), 2, stride=0)),
    ("max_pool2d kernel tuple", lambda: F.max_pool2d(torch.ones(1, 3, 8, 8), (2, 2, 2))),
    ("max_pool2d dilation", lambda: F.max_pool2d(torch.ones(1, 3, 8, 8), 2, dilation=0)),
    ("avg_pool2d on 2-D", lambda: F.avg_pool2d(torch.ones(8, 8), 2)),
    ("avg_pool2d too small", lambda: F.avg_pool2d(torch.ones(1, 3, 1, 1), 2)),
    ("avg_pool2d divisor", lambda: F.avg_pool2d(torch.ones(1, 3, 8, 8), 2, divisor_override=0)),
    ("adaptive on 2-D", lambda: F.adaptive_avg_pool2d(torch.ones(8, 8), 2)),
    ("adaptive size", lambda: F.adaptive_avg_pool2d(torch.ones(1, 3, 8, 8), (2, 2, 2))),
    ("adaptive negative", lambda: F.adaptive_avg_pool2d(torch.ones(1, 3, 8, 8), -1)),
    ("adaptive long", lambda: F.adaptive_avg_pool2d(torch.ones(1, 3, 8, 8, dtype=torch.long), 2)),
]
for name, fn in tries:
    print(name + ":")
    try:
        fn()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
