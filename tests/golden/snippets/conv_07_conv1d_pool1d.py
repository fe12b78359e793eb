# A 1-D CNN over sequences: Conv1d, MaxPool1d, AvgPool1d, AdaptiveAvgPool1d after manual_seed
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
model = nn.Sequential(
    nn.Conv1d(2, 4, 3, padding=1), nn.ReLU(), nn.MaxPool1d(2),
    nn.Conv1d(4, 4, 3, dilation=2), nn.ReLU(), nn.AvgPool1d(2, ceil_mode=True),
    nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(4, 3))
print(model)
x = torch.randn(5, 2, 16)
out = model(x)
print(out)
loss = F.cross_entropy(out, torch.tensor([0, 1, 2, 1, 0]))
loss.backward()
print(loss)
print(model[0].weight.grad[1])
print(model[3].bias.grad)

s = torch.tensor([[3., 1., 4., 1., 5., 9., 2., 6.]], requires_grad=True)
m, i = F.max_pool1d(s, 3, stride=2, padding=1, return_indices=True)
print(m, i)
print(m.grad_fn, m.grad_fn.next_functions[0][0], m.grad_fn.next_functions[0][0]._saved_kernel_size)
m.sum().backward()
print(s.grad)
print(F.avg_pool1d(s, 3, stride=2, padding=1, count_include_pad=False))
print(F.adaptive_avg_pool1d(s, 3))
for bad in [lambda: F.max_pool1d(torch.ones(8), 2), lambda: F.max_pool1d(s, 2, padding=2),
            lambda: F.avg_pool1d(torch.ones(8), 2), lambda: F.max_pool1d(s, 9)]:
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
