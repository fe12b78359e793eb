import torch

x = torch.tensor([1.0], requires_grad=True)
for training in (True, False):
    with torch.set_grad_enabled(training):
        y = x * 2
    print(training, y.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
print((x * 2).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
print((x * 2).requires_grad, torch.is_grad_enabled())
