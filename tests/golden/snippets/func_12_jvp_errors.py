import torch
from torch.func import jvp

x = torch.tensor([1., 2.])
for name, call in [
    ("primals not tuple", lambda: jvp(torch.sin, x, (x,))),
    ("structure", lambda: jvp(torch.sin, (x,), (x, x))),
    ("tangents bare", lambda: jvp(torch.sin, (x,), x)),
    ("primal number", lambda: jvp(lambda a: a, (1.0,), (1.0,))),
    ("empty", lambda: jvp(lambda: x, (), ())),
    ("size", lambda: jvp(torch.sin, (x,), (torch.ones(3),))),
    ("int primal", lambda: jvp(lambda a: a, (torch.tensor([1, 2]),), (torch.tensor([1, 2]),))),
    ("number output", lambda: jvp(lambda a: 2.0, (x,), (x,))),
    ("has_aux", lambda: jvp(torch.sin, (x,), (x,), has_aux=True)),
    ("strict", lambda: jvp(lambda a: torch.ones(2), (x,), (x,), strict=True)),
]:
    try:
        call()
    except Exception as e:
        print(name, "->", type(e).__name__, e)
print(jvp(lambda a: torch.ones(2), (x,), (x,)))
