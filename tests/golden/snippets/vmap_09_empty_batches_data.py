# jacfwd and hessian of an empty input (a vmap over an empty basis), vmap over an empty batch, and
# `.data` under vmap: refused when vmap is the innermost transform, allowed under grad inside it
import torch
from torch.func import vmap, grad, jacfwd, hessian
e = torch.tensor([], requires_grad=True)
print(hessian(lambda x: x.unsqueeze(-1).sum())(e))
print(jacfwd(lambda x: x.unsqueeze(-1).sum())(e), jacfwd(lambda x: x * 2)(torch.zeros(2, 0)).shape)
print(hessian(lambda x: (x - x).norm(p=1))(torch.tensor([], dtype=torch.float64)))
print(vmap(lambda x: x.sum())(torch.zeros(0, 3)), vmap(lambda x: x.max())(torch.zeros(0, 3)))
print(torch.zeros(0, 0).norm(p=1, dim=1))
w = torch.tensor([[1., -2., 3.], [4., 5., -6.]])


def f(x):
    y = x * 2
    y.data.mul_(2)
    return y.sum()


print(vmap(grad(f))(w))
try:
    vmap(f)(w)
except RuntimeError as err:
    print(type(err).__name__, err)
leaf = torch.ones(2, 3, 2, dtype=torch.float64, requires_grad=True)
for fn in (lambda t: t.expand(2, *t.shape).__setitem__([-2], True), lambda t: t.mul_(2)):
    try:
        vmap(fn, in_dims=1)(leaf)
    except RuntimeError as err:
        print(type(err).__name__, err)
try:
    leaf.expand(2, *leaf.shape)[[-2]] = True  # the leaf check comes before index_put_'s expand warning
except RuntimeError as err:
    print(type(err).__name__, err)
import warnings
with warnings.catch_warnings(record=True) as caught:  # jacfwd's primals are not batched: no slow fallback
    warnings.simplefilter("always")
    print(jacfwd(lambda x: (x / 2).clamp_(-1, 1).addcmul_(x, x).lerp_(x, 0.5))(torch.tensor([0.5, 3.0])))
    print(jacfwd(jacfwd(lambda x: (x * x).clamp_(-1, 1)))(torch.tensor([0.5, 3.0])))
print([str(w.message) for w in caught])
v1 = torch.tensor([[1.14, 2.1, 0.73]], requires_grad=True)
for cs in (None, 1, 2):  # with a chunk_size the chunks are always joined by cat, even a single one
    r0 = vmap(lambda x: x, chunk_size=cs)(v1)
    print(cs, r0.is_leaf, r0.requires_grad, type(r0.grad_fn).__name__)
    try:
        r0 = vmap(lambda x, y: (x * 2, y), in_dims=(0, None), out_dims=(1, None), chunk_size=cs)(torch.ones(3, 2), v1)
        print(cs, r0[0].shape, r0[1] is v1)
    except TypeError as err:
        print(type(err).__name__, err)
