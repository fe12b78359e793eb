# A tour of torch.nn's activations: values, gradients, grad_fn names and reprs
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([-4.0, -1.5, -0.25, 0.0, 0.5, 2.0, 3.5, 7.0], requires_grad=True)
layers = [nn.ReLU6(), nn.Hardtanh(-2.0, 2.0), nn.LogSigmoid(), nn.SELU(), nn.CELU(alpha=2.0), nn.Mish(),
          nn.Softsign(), nn.Hardswish(), nn.Hardsigmoid(), nn.Tanhshrink(), nn.Softshrink(1.0),
          nn.Hardshrink(), nn.Threshold(0.1, 20.0), nn.Softmin(dim=0)]
for layer in layers:
    y = layer(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    print(layer, y.grad_fn.name())
    print("  y   ", y.detach())
    print("  grad", g)

print(F.relu6(torch.tensor([-3, 2, 9])))  # integer tensors stay integer
print(F.selu(torch.tensor([-1.0, 1.0])).grad_fn)  # no grad needed: None
y = F.selu(x)
print(y.grad_fn.name(), y.grad_fn._saved_alpha, y.grad_fn._saved_scale)
print(nn.Sequential(nn.Linear(2, 2), nn.Hardswish(inplace=True), nn.ReLU6(inplace=True), nn.SELU(inplace=True)))

# in-place forms: HardtanhBackward0 keeps the input from before the write, selu_ its result
h = x * 1
F.hardtanh_(h)
print(h, h.grad_fn._saved_min_val, h.grad_fn._saved_self)
s = x * 1
torch.selu_(s)
print(s.grad_fn.name(), s.grad_fn._saved_result)
s.sum().backward()
print(x.grad)

try:
    F.logsigmoid(torch.tensor([1, 2]))
except NotImplementedError as e:
    print(type(e).__name__, e)
try:
    nn.Hardtanh(1.0, -1.0)
except AssertionError as e:
    print("AssertionError", e)
F.softshrink(x, -0.5)
