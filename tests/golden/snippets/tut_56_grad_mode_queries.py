# Grad-mode switches and how to query them
import torch

torch.manual_seed(0)
x = torch.randn(2, requires_grad=True)
print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    with torch.enable_grad():
        y = x * 2
    print(y.requires_grad)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(False)
print((x * 2).requires_grad)
torch.set_grad_enabled(True)
print((x * 2).requires_grad)
with torch.inference_mode():
    print(torch.is_grad_enabled(), torch.is_inference_mode_enabled())
with torch.inference_mode(False):
    print(torch.is_inference_mode_enabled())
