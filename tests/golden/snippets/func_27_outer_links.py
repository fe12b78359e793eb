# Whether a transform's result stays linked to the outer graph: a captured view made under no_grad
# (it requires grad but has no edge) enters the backward formulas; an empty Jacobian of an input
# that requires grad is still linked to it
import torch
from torch.func import grad, jacrev, vjp
v1 = torch.tensor([-2.35, -3.0, 0.85], dtype=torch.float64, requires_grad=True)
with torch.no_grad():
    v4 = v1[2:]
def show(name, r):
    print(name, r.tolist(), "leaf", r.is_leaf, "rg", r.requires_grad)
show("x*v4", grad(lambda x: (x * v4).sum())(v1))
show("x*v4 detached input", grad(lambda x: (x * v4).sum())(v1.detach()))
show("cumsum/v4", grad(lambda x: (x.cumsum(0) / v4).sum())(v1 * 2))
g = grad(lambda x, y: (y.cumsum(1) / v4).sum(), argnums=(0, 1))(v1, torch.stack([v1, v1], dim=-1))
show("unused", g[0])
show("used", g[1])
show("x*x", grad(lambda x: (x * x).sum())(v1))
show("x*2", grad(lambda x: (x * 2).sum())(v1))
_, fn = vjp(lambda x: x * v4, v1)
show("vjp", fn(torch.ones(3, dtype=torch.float64))[0])
e = v1[v1 > 5]
show("jacrev empty", jacrev(lambda x: x ** 2)(e))
show("jacrev empty detached", jacrev(lambda x: x ** 2)(e.detach()))
show("jacrev empty out", jacrev(lambda x: x[x > 5])(v1))
show("jacrev empty in", jacrev(lambda x: x.sum() * 2)(e))
