import torch
from torch.func import grad, grad_and_value

x = torch.tensor([1., 2., 3.])

for name, call in [
    ("vector output", lambda: grad(lambda x: x * 2)(x)),
    ("tuple output", lambda: grad(lambda x: (x.sum(), x.sum()))(x)),
    ("number output", lambda: grad(lambda x: 3.0)(x)),
    ("argnums too big", lambda: grad(lambda x: x.sum(), argnums=1)(x)),
    ("argnums negative", lambda: grad(lambda x, y: x.sum(), argnums=-3)(x, x)),
    ("argnums repeated", lambda: grad(lambda x, y: x.sum(), argnums=(0, 0))(x, x)),
    ("argnums empty", lambda: grad(lambda x, y: x.sum(), argnums=())(x, x)),
    ("argnums float", lambda: grad(lambda x: x.sum(), argnums=0.0)(x)),
    ("argnums list", lambda: grad(lambda x: x.sum(), argnums=[0])(x)),
    ("has_aux single", lambda: grad(lambda x: x.sum(), has_aux=True)(x)),
    ("has_aux triple", lambda: grad(lambda x: (x.sum(), x, x), has_aux=True)(x)),
    ("has_aux non-scalar", lambda: grad(lambda x: (x, x), has_aux=True)(x)),
    ("number input", lambda: grad(lambda x: x * 2)(3.0)),
    ("value vector", lambda: grad_and_value(lambda x: x ** 2)(x)),
]:
    try:
        call()
    except Exception as e:
        print(name, "->", type(e).__name__, e)

grad(lambda x: (x * 2).sum(0))(torch.ones(2, 2))
