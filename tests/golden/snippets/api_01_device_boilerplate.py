# The device line every tutorial starts with, then moving data and a model to it.
import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(f"Using {device} device")
print(device, repr(device), device.type, device.index)

x = torch.arange(6.0).reshape(2, 3).to(device)
print(x)
print(x.device, x.is_cuda, x.is_cpu)

model = nn.Linear(3, 1).to(device)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -1.0, 2.0]]))
    model.bias.fill_(0.25)
print(next(model.parameters()).device)
out = model(x)
print(out, out.device)
