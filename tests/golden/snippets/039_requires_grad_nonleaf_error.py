import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x + 1
y.requires_grad_(True)  # fine: already requires grad
print(y.requires_grad)
try:
    torch.tensor([1, 2]).requires_grad_()
except RuntimeError as e:
    print(type(e).__name__, e)
y.requires_grad = False
