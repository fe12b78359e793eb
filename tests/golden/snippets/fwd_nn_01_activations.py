# Forward-mode tangents through the activation functions of torch.nn.functional: each is
# elementwise, so the tangent is the input's tangent times the derivative at each element.
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

x = torch.tensor([[-1.5, 0.3, 2.0], [0.7, -0.2, 1.1]])
v = torch.tensor([[1.0, -2.0, 0.5], [0.3, 0.1, -1.0]])
with fwAD.dual_level():
    xd = fwAD.make_dual(x, v)
    acts = {
        "relu": F.relu,
        "leaky_relu(0.1)": lambda a: F.leaky_relu(a, 0.1),
        "elu": F.elu,
        "gelu": F.gelu,
        "gelu(tanh)": lambda a: F.gelu(a, approximate="tanh"),
        "silu": F.silu,
        "softplus": F.softplus,
        "softplus(beta=2, threshold=1)": lambda a: F.softplus(a, beta=2, threshold=1),
        "sigmoid": torch.sigmoid,
        "tanh": torch.tanh,
    }
    for name, f in acts.items():
        out = f(xd)
        primal, tangent = fwAD.unpack_dual(out)
        print(name, primal)
        print("  tangent", tangent)
    # The same activation as a module
    out = torch.nn.SiLU()(xd)
    print(fwAD.unpack_dual(out).tangent)
