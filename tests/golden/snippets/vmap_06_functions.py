# autograd.Function under vmap: setup_context required, a vmap staticmethod, generate_vmap_rule=True
import torch
from torch.func import vmap, grad, jacrev
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(x): return x ** 2
    @staticmethod
    def setup_context(ctx, inputs, output): ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g): (x,) = ctx.saved_tensors; return 2 * x * g
class Old(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x): ctx.save_for_backward(x); return x ** 2
    @staticmethod
    def backward(ctx, g): (x,) = ctx.saved_tensors; return 2 * x * g
class Gen(Sq):
    generate_vmap_rule = True
class V(Sq):
    @staticmethod
    def vmap(info, in_dims, x):
        print("info", info.batch_size, info.randomness, in_dims)
        return Sq.apply(x), in_dims[0]
x = torch.arange(6.).reshape(2,3)
for F in (Sq, Old, Gen, V):
    try: print(F.__name__, vmap(F.apply)(x))
    except Exception as e: print(F.__name__, type(e).__name__, e)
print(vmap(grad(lambda t: Gen.apply(t).sum()))(x))
print(vmap(grad(lambda t: V.apply(t).sum()))(x))
print(vmap(jacrev(Gen.apply))(x))
class Scale(torch.autograd.Function):
    generate_vmap_rule = True
    @staticmethod
    def forward(x, w): return x * w
    @staticmethod
    def setup_context(ctx, inputs, output): ctx.save_for_backward(*inputs)
    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return g * w, g * x
w = torch.tensor([1., -1., 2.], requires_grad=True)
out = vmap(Scale.apply, in_dims=(0, None))(x, w)
print(out)
out.sum().backward()
print(w.grad)
