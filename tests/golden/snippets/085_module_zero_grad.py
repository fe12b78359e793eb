import torch
import torch.nn as nn

model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[1.0, 2.0]]))
    model.bias.zero_()
loss = model(torch.tensor([[1.0, 1.0]])).sum()
loss.backward()
print(model.weight.grad, model.bias.grad)
model.zero_grad()
print(model.weight.grad, model.bias.grad)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
model(torch.tensor([[2.0, 0.0]])).sum().backward()
opt.step()
print(model.weight)
opt.zero_grad()
print(model.weight.grad)
