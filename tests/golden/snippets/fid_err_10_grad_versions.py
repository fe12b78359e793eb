import torch

# A leaf's first .grad is the gradient itself when nothing else holds it and it obeys the leaf's
# layout (its version shows: 1 after an in-place accumulation), else a copy into a buffer laid out
# as the leaf (new_empty_strided(...).copy_(), version 1); later ones are added in place.
cases = [
    ("x * 2", lambda x, y: (x * 2).sum() + (y * y).sum()),
    ("x * x", lambda x, y: (x * x).sum() + y.exp().sum()),
    ("x * x * x", lambda x, y: (x * x * x).sum() + y.sum()),
    ("sum", lambda x, y: x.sum() + y.sum()),
    ("mean", lambda x, y: x.mean() + y[0]),
    ("x + y", lambda x, y: (x + y).sum()),
    ("(x + y).exp()", lambda x, y: (x + y).exp().sum()),
    ("x * y", lambda x, y: (x * y).sum()),
    ("view", lambda x, y: (x.view(2, 1) * 3).sum() + torch.cat([y, y]).sum()),
]
for name, f in cases:
    x = torch.tensor([1.5, -2.0], requires_grad=True)
    y = torch.tensor([0.5, 3.0], requires_grad=True)
    f(x, y).backward()
    first = (x.grad._version, y.grad._version)
    f(x, y).backward()
    print(name, first, (x.grad._version, y.grad._version))
