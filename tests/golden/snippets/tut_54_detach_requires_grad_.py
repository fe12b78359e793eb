# detach / requires_grad_ / .data patterns in tutorials
import torch

torch.manual_seed(0)
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)

x = torch.randn(3, requires_grad=True)
print(x.requires_grad)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
y = x.detach()
print(y.requires_grad)
print(x.eq(y).all())

# detach() shares storage: in-place changes show up in both
y.zero_()
print(x)

w = torch.randn(3).requires_grad_()
print(w.is_leaf, w.requires_grad)
h = (w * 2).detach().requires_grad_(True)
print(h.is_leaf)
try:
    (w * 2).requires_grad_(False)
except RuntimeError as e:
    print(type(e).__name__, e)
print(x.data.requires_grad, x.detach().numpy().shape)
x.numpy()
