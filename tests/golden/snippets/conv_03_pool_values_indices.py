# max_pool2d with indices (ties go to the first), where the gradient goes; avg and adaptive pooling values
import torch
import torch.nn.functional as F

x = torch.tensor([[[[1., 5., 2., 2.],
                    [3., 4., 2., 2.],
                    [0., -1., 7., 7.],
                    [6., 6., 7., 8.]]]], requires_grad=True)
out, idx = F.max_pool2d(x, 2, return_indices=True)
print(out)
print(idx)
print(out.grad_fn)
g = out.grad_fn
print(g._saved_kernel_size, g._saved_stride, g._saved_padding, g._saved_dilation, g._saved_ceil_mode)
print(torch.equal(g._saved_result1, idx))
out.sum().backward()
print(x.grad)

x.grad = None
out, idx = F.max_pool2d(x, 3, stride=1, padding=1, return_indices=True)
print(idx)
(out * torch.arange(16.).view(1, 1, 4, 4)).sum().backward()
print(x.grad)

y = torch.arange(25.).view(1, 5, 5).requires_grad_()
print(F.max_pool2d(y, 2, ceil_mode=True))
a = F.avg_pool2d(y, 2, ceil_mode=True)
print(a)
print(F.avg_pool2d(y, 3, stride=2, padding=1))
print(F.avg_pool2d(y, 3, stride=2, padding=1, count_include_pad=False))
print(F.avg_pool2d(y, 2, divisor_override=3))
a.sum().backward()
print(y.grad)
print(a.grad_fn, a.grad_fn._saved_count_include_pad, a.grad_fn._saved_divisor_override)

z = torch.arange(35.).view(1, 1, 5, 7).requires_grad_()
p = F.adaptive_avg_pool2d(z, (2, 3))
print(p)
print(p.grad_fn)
p.sum().backward()
print(z.grad)
print(F.adaptive_avg_pool2d(z, 1).grad_fn)
