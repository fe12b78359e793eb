# A short tensor's activations run ATen's scalar kernels, which call the C library on each float
# (glibc's log1pf, expm1f, tanhf, not correctly rounded) with the compiler's fused multiply-adds:
# every digit of .tolist() shows them.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(24) * 2.5
dy = torch.randn(24)
for name, f in [("softplus", F.softplus), ("elu", F.elu), ("selu", F.selu), ("celu", lambda a: F.celu(a, 0.7)),
                ("mish", F.mish), ("gelu(tanh)", lambda a: F.gelu(a, approximate="tanh"))]:
    a = x.clone().requires_grad_()
    y = f(a)
    y.backward(dy)
    print(name, y.tolist())
    print(name, "grad", a.grad.tolist())

# logistic regression's BCE on probabilities (log and log1p of each float)
p = torch.sigmoid(x)
t = (torch.rand(24) > 0.5).float()
print(F.binary_cross_entropy(p, t, reduction="none").tolist())
print(F.binary_cross_entropy(p, t).item(), torch.xlogy(t + 1, p).tolist())
