# mark_dirty misuse: a dirty tensor that is not returned, a non-tensor, a tensor that is not an input
import torch
from torch.autograd import Function


def make(name, forward):
    return type(name, (Function,), {"forward": staticmethod(forward),
                                    "backward": staticmethod(lambda ctx, *g: g[0])})


def not_an_input(ctx, x):
    y = x * 2
    ctx.mark_dirty(y)
    return y


def not_a_tensor(ctx, x):
    ctx.mark_dirty(x, 3)
    return x


def not_returned(ctx, x):
    x.add_(1)
    ctx.mark_dirty(x)
    return x * 1


a = torch.tensor([1.0, 2.0], requires_grad=True)
out = make("NotInput", not_an_input).apply(a.clone())
print(out)
try:
    make("NotTensor", not_a_tensor).apply(a.clone())
except RuntimeError as e:
    print(type(e).__name__, repr(str(e)))
t = a.clone()
try:
    make("NotReturned", not_returned).apply(t)
except RuntimeError as e:
    print(type(e).__name__, e)
print(t, t._version)
with torch.no_grad():
    make("NotReturnedNoGrad", not_returned).apply(torch.zeros(2))
