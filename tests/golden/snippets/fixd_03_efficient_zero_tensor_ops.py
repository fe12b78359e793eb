import torch

# The real sgn's backward gives PyTorch's efficient zero tensor; products, quotients of it, sums of
# two and views keep it one (no storage: tolist() refuses), other ops give plain zeros.
x = torch.tensor([[2.0, -0.5, 0.0], [1.5, -3.0, 4.0]], dtype=torch.float64, requires_grad=True)
z, = torch.autograd.grad(x.sgn().sum(), x)
z32, = torch.autograd.grad(x.float().sgn().sum(), x)
w = torch.tensor([[1.0, float('inf'), float('nan')], [0.0, -2.0, 3.0]], requires_grad=True)
cases = {
    "z*2": lambda: z * 2, "2*z": lambda: 2 * z, "z*w": lambda: z * w, "w*z": lambda: w * z,
    "z/w": lambda: z / w, "z/0": lambda: z / 0, "z.div(2)": lambda: z.div(2),
    "z+z": lambda: z + z, "z-z": lambda: z - z, "z+w": lambda: z + w, "z+1": lambda: z + 1, "-z": lambda: -z,
    "z.sum()": lambda: z.sum(), "z.exp()": lambda: z.exp(), "z.t()": lambda: z.t(), "z.view(6)": lambda: z.view(6),
    "z[0]": lambda: z[0], "z.unsqueeze(0)": lambda: z.unsqueeze(0),
    "z.reshape(3, 2)": lambda: z.reshape(3, 2), "z.expand(2, 2, 3)": lambda: z.expand(2, 2, 3),
    "z.detach()": lambda: z.detach(), "z.clone()": lambda: z.clone(), "z32 * z": lambda: z32 * z,
    "z.div(2, floor)": lambda: z.div(2, rounding_mode="floor"),
}
for name, f in cases.items():
    r = f()
    try:
        values = r.tolist()
    except RuntimeError as e:
        values = str(e)
    print(name, r.dtype, tuple(r.shape), r.grad_fn is not None, values)

# a hook scaling the gradient keeps it a zero tensor through the second pass (program 31:7196)
v1 = torch.tensor([[2.0, 0.56, 0.92], [-1.64, 0.2, -1.28]], dtype=torch.float64, requires_grad=True)
v2 = torch.norm(v1, p=float('inf'))
v1.register_hook(lambda g: g * 2)
v0 = torch.zeros(4, dtype=torch.float64)
v0.copy_(v2)
v7 = torch.trunc(v0)
gs = torch.autograd.grad((v7 * v7).sum(), [v1], create_graph=True)
gg = torch.autograd.grad(gs[0].sum(), [v1])
try:
    print(gg[0].tolist())
except RuntimeError as e:
    print(e)
