# Saving a model's state_dict into memory and loading it into a fresh model.
import io

import torch
from torch import nn

model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape) * 0.1 - i)

buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
state = torch.load(buffer)
print(type(state))
for name, tensor in state.items():
    print(name, tensor.shape, tensor.dtype, tensor.requires_grad)

clone = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
print(clone.load_state_dict(state))
x = torch.tensor([[1.0, -1.0]])
print(model(x), clone(x))
print(torch.equal(model[0].weight, clone[0].weight))

buffer.seek(0)
print(torch.load(buffer, weights_only=True)["2.bias"])
