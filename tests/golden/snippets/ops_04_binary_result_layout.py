# The layout of an elementwise result of two tensors laid out differently: PyTorch's TensorIterator
# sorts the dims by the operands' strides, the first operand deciding, so a later reshape is a view
# (ViewBackward0 / ReshapeAliasBackward0) or a copy (UnsafeViewBackward0) as it decides.
import torch

x = torch.arange(12.).reshape(3, 4).t().requires_grad_()
y = torch.ones(4, 1)
a = torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)
b = torch.ones(4, 1, 1)
p = torch.ones(1, 3, 1, 4).permute(3, 2, 1, 0)
q = torch.ones(4, 1, 3, 1)
e = torch.ones(5, 1).expand(5, 3)
f = torch.ones(3, 5).t()
u = torch.ones(2, 6, requires_grad=True).unsqueeze(2).unsqueeze(3).permute(1, 2, 0, 3)
v = torch.ones(6, 2).unsqueeze(2).unsqueeze(3).permute(0, 2, 1, 3)
for name, r in [("x*y", x * y), ("y*x", y * x), ("x+y", x + y), ("x-y", x - y), ("x/y", x / (y + 1)),
                ("a*b", a * b), ("b*a", b * a), ("p*q", p * q), ("q*p", q * p), ("e*f", e * f), ("f*e", f * e),
                ("u*v", u * v), ("v*u", v * u), ("u+v", u + v)]:
    print(name, tuple(r.shape), r.stride(), r.is_contiguous())
print((x * y).reshape(-1).grad_fn.name(), (y * x).reshape(12).grad_fn.name())
print((u * v).reshape(6, 2).grad_fn.name(), (v * u).reshape(6, 2).grad_fn.name())
