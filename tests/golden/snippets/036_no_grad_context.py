import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    y = x * 2
    with torch.enable_grad():
        z = x * 3
print(torch.is_grad_enabled())
print(y, y.requires_grad)
print(z, z.requires_grad)
with torch.no_grad():
    x -= 0.5 * torch.ones(2)
print(x, x.is_leaf)
