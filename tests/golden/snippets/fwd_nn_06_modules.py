# A whole nn.Sequential forward carries tangents: along an input direction, and along a direction
# in parameter space (the forward-AD tutorial's "usage with modules": swap each parameter for a
# dual tensor).
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
mlp = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.2, -0.3]])
with fwAD.dual_level():
    out = mlp(fwAD.make_dual(x, torch.ones(2, 3)))
    print("input direction:", fwAD.unpack_dual(out).tangent.detach())
    loss = F.cross_entropy(out, torch.tensor([1, 0]))
    print("loss tangent:", fwAD.unpack_dual(loss).tangent.detach())

cnn = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8, 3))
img = torch.arange(16.0).reshape(1, 1, 4, 4).sin()
with fwAD.dual_level():
    out = cnn(fwAD.make_dual(img, torch.ones(1, 1, 4, 4)))
    print("cnn:", out.shape, fwAD.unpack_dual(out).tangent.detach())

model = nn.Linear(3, 2)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.ones_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(x)
    jvp = fwAD.unpack_dual(out).tangent
    print("parameter direction:", jvp.detach())
    # the same number by hand: x @ W_t.T + b_t
    print(torch.allclose(jvp, x @ tangents["weight"].T + tangents["bias"]))
