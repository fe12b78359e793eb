import torch
from torch import nn

model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 0.5]]))
    model[0].bias.copy_(torch.tensor([0.0, -1.0]))
    model[2].weight.copy_(torch.tensor([[2.0, 1.0]]))
    model[2].bias.fill_(0.5)
print(model)
x = torch.tensor([[1.0, 3.0], [2.0, 1.0]])
out = model(x)
print(out)
out.mean().backward()
for name, p in model.named_parameters():
    print(name, p.grad)
