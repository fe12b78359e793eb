# Clip gradients during backward with a hook on every parameter
import torch
from torch import nn

torch.manual_seed(4)
model = nn.Linear(3, 2)
clip_value = 0.05
for p in model.parameters():
    p.register_hook(lambda grad: torch.clamp(grad, -clip_value, clip_value))

x = torch.randn(8, 3)
target = torch.randn(8, 2)
loss = nn.functional.mse_loss(model(x), target)
loss.backward()
print(loss)
print(model.weight.grad)
print(model.bias.grad)

model.zero_grad()
print(model.weight.grad)
loss = nn.functional.mse_loss(model(x), target)
loss.backward()
total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.01)
print(total)
print(model.weight.grad.norm())
