# The device boilerplate at the top of most tutorials
import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(f"Using {device} device")
print(device, repr(device), device.type, device.index)
print(torch.cuda.is_available(), torch.cuda.device_count())

torch.manual_seed(0)
model = nn.Linear(3, 2).to(device)
x = torch.randn(4, 3).to(device)
y = model(x)
print(y.device, x.device, model.weight.device)
print(next(model.parameters()).device)
print(x.is_cuda, x.device == device, x.device == torch.device('cpu'))
print(str(x.device) == 'cpu', x.device.type == 'cpu')
