import torch
from torch.func import jacrev

x = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
J = jacrev(lambda x: x.exp())(x)
print(J.shape)
print(jacrev(lambda x: (x ** 2).sum())(x))
print(jacrev(lambda s: s * torch.tensor([1., 2., 3.]))(torch.tensor(2.)))
print(jacrev(lambda s: s ** 3)(torch.tensor(2.)))

v = torch.tensor([0.5, 1.5])
out = jacrev(lambda v: (v.sin(), v * v))(v)
print(type(out).__name__)
print(out[0])
print(out[1])
out = jacrev(lambda v: {"a": v.exp(), "b": (v * 3).sum()})(v)
print(out["a"])
print(out["b"])
out = jacrev(lambda a, b: a * b, argnums=(0, 1))(v, torch.tensor([2., 4.]))
print(out)
print(jacrev(lambda a, b: a * b, argnums=1)(v, torch.tensor(3.)))
print(jacrev(lambda v: v * 0 + 1)(v))
print(jacrev(lambda v: torch.ones(2))(v))

for name, call in [
    ("chunk_size 0", lambda: jacrev(torch.sin, chunk_size=0)),
    ("argnums", lambda: jacrev(torch.sin, argnums=2)(v)),
    ("int output", lambda: jacrev(lambda v: (v > 1).long())(v)),
    ("has_aux", lambda: jacrev(torch.sin, has_aux=True)(v)),
]:
    try:
        call()
    except Exception as e:
        print(name, "->", type(e).__name__, e)
