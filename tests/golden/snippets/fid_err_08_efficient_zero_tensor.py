import torch


def attempt(name, f):
    try:
        print(name, f())
    except Exception as e:
        print(name, type(e).__name__, e)


# abs's double backward runs the real sgn's backward, an efficient zero tensor: it prints as zeros
# but has no storage to list or hand to NumPy, and cannot be written into.
x = torch.tensor([1.58, -2.0], dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(x.abs().sum(), [x], create_graph=True)
z, = torch.autograd.grad(g.sum(), [x])
print(z, z._is_zerotensor(), z._version)
attempt("tolist", lambda: z.tolist())
attempt("numpy", lambda: z.numpy())
attempt("numpy(force=True)", lambda: z.numpy(force=True))
attempt("item", lambda: z[1].item())
attempt("add_", lambda: z.add_(1))
attempt("plus one", lambda: (z + 1).tolist())
# Added to another gradient it is an ordinary tensor again.
g, = torch.autograd.grad((x.abs() + x * x).sum(), [x], create_graph=True)
z, = torch.autograd.grad(g.sum(), [x])
print(z._is_zerotensor(), z.tolist())
# backward() stores it as the leaf's grad; a second backward cannot add into it.
y = torch.tensor([1.58, -2.0], dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(y.abs().sum(), [y], create_graph=True)
s = g.sum()
s.backward(retain_graph=True)
print(y.grad._is_zerotensor())
attempt("grad tolist", lambda: y.grad.tolist())
attempt("second backward", lambda: s.backward())
