import warnings

import torch
import torch.autograd.forward_ad as fwAD

# PyTorch's first make_dual loads its jvp decompositions, whose torch.jit.script calls each warn
# that jit.script is deprecated; not what this snippet is about.
warnings.filterwarnings("ignore", category=DeprecationWarning)

# Forward-over-reverse: the tangent of a gradient is a Hessian-vector product.
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
v = torch.tensor([1.0, 0.0, -1.0])


def f(a):
    return a.softmax(0).mul(torch.tensor([1.0, 2.0, 3.0])).sum() + a.logsumexp(0) + (a * a).prod() + a.norm() ** 2


with fwAD.dual_level():
    dx = fwAD.make_dual(x, v)
    y = f(dx)
    print("f tangent:", fwAD.unpack_dual(y).tangent)
    (g,) = torch.autograd.grad(y, dx)
    p, hv = fwAD.unpack_dual(g)
    print("grad:", p)
    print("Hv:", hv)

# The same with create_graph=True: the Hessian-vector product then has history too.
with fwAD.dual_level():
    dx = fwAD.make_dual(x, v)
    (g,) = torch.autograd.grad(f(dx), dx, create_graph=True)
    hv = fwAD.unpack_dual(g).tangent
    print("Hv again:", hv.detach(), hv.requires_grad)

# Reverse over a matrix product and a max: H v of sum((W x).max() + (W x).sum() ** 2)
W = torch.tensor([[1.0, 2.0, 0.0], [0.0, -1.0, 1.0]])
with fwAD.dual_level():
    dx = fwAD.make_dual(x, v)
    z = W @ dx
    (g,) = torch.autograd.grad(z.max() + z.sum() ** 2 + z.log_softmax(0)[0], dx)
    print("Hv matmul:", fwAD.unpack_dual(g).tangent)

# A tangent for the weights, none for the input
with fwAD.dual_level():
    dW = fwAD.make_dual(W, torch.ones(2, 3))
    out = torch.mv(dW, x.detach()).var()
    print("var(W x) tangent:", fwAD.unpack_dual(out).tangent)
