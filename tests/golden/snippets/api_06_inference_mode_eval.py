# Evaluating a model under torch.inference_mode().
import torch
from torch import nn

model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[2.0, -1.0]]))
    model.bias.fill_(0.5)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])

print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
with torch.inference_mode():
    print(torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    pred = model(x)
print(pred)
print(pred.requires_grad, pred.grad_fn, pred.is_inference())
print(x.is_inference(), model.weight.is_inference())
print(pred.numpy())
print(pred.clone().is_inference(), pred.detach().is_inference(), pred[0].is_inference())
