import warnings

import torch
from torch.func import linearize, jvp

# PyTorch's tracer of the JVP warns about the constants it folds
warnings.filterwarnings("ignore", message="Attempted to insert a get_attr Node")

# torch.func.linearize docs
torch.manual_seed(0)
x = torch.randn(3, 3)

def fn(x):
    return x.sin()

output, jvp_fn = linearize(fn, x)
print(output)
print(jvp_fn(torch.ones(3, 3)))
print(torch.allclose(jvp_fn(torch.ones(3, 3)), x.cos()))
print(torch.allclose(jvp_fn(x), jvp(fn, (x,), (x,))[1]))

out, jfn = linearize(lambda a, b: a * b.exp(), torch.tensor([1., 2.]), torch.tensor([0., 1.]))
print(out)
print(jfn(torch.tensor([1., 0.]), torch.tensor([0., 1.])))
for name, call in [
    ("shape", lambda: jvp_fn(torch.ones(3))),
    ("dtype", lambda: jvp_fn(torch.ones(3, 3, dtype=torch.float64))),
    ("structure", lambda: jfn(torch.ones(2))),
]:
    try:
        call()
    except Exception as e:
        print(name, "->", type(e).__name__, e)
