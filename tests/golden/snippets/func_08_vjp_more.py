import torch
from torch.func import vjp

x = torch.tensor([1., 2., 3.])
y = torch.tensor([0.5, -1., 2.])
out, fn = vjp(lambda a, b: a * b + a.exp(), x, y)
print(out)
print(fn(torch.tensor([1., 0., 2.])))
print(fn(torch.ones(3)))          # vjp_fn can be called again

out, fn, aux = vjp(lambda a: (a ** 2, {"n": a.sum()}), x, has_aux=True)
print(out, aux)
print(fn(torch.ones(3)))
print(out.requires_grad, aux["n"].requires_grad)

# An output independent of the input gets a zero vjp
out, fn = vjp(lambda a, b: a * 2, x, y)
print(fn(torch.ones(3)))

for name, call in [
    ("cotangent structure", lambda: vjp(lambda a: (a, a), x)[1](torch.ones(3))),
    ("list vs tuple", lambda: vjp(lambda a: [a, a], x)[1]((torch.ones(3), torch.ones(3)))),
    ("integer output", lambda: vjp(lambda a: a.long(), x)),
    ("number output", lambda: vjp(lambda a: 1.0, x)),
    ("None output", lambda: vjp(lambda a: None, x)),
    ("has_aux", lambda: vjp(lambda a: a, x, has_aux=True)),
    ("non-tensor primal", lambda: vjp(lambda a: a, 2.0)),
]:
    try:
        call()
    except Exception as e:
        print(name, "->", type(e).__name__, e)
