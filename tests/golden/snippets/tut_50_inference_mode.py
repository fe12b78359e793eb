# torch.inference_mode, from its docs
import torch

x = torch.ones(1, 2, 3, requires_grad=True)
with torch.inference_mode():
    y = x * x
print(y.requires_grad)
print(y.is_inference(), x.is_inference())
print(torch.is_inference_mode_enabled())


@torch.inference_mode()
def func(x):
    return x * x


out = func(x)
print(out.requires_grad, out.is_inference())

with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    with torch.inference_mode(mode=False):
        z = x * 2
        print(z.requires_grad, z.is_inference())

torch.manual_seed(0)
with torch.inference_mode():
    w = torch.randn(3)
print(w, w.is_inference())
w2 = w.clone()
print(w2.is_inference())
try:
    w.add_(1)
except RuntimeError as e:
    print(type(e).__name__, e)
p = torch.ones(3, requires_grad=True)
loss = (p * w).sum()  # using an inference tensor in autograd
