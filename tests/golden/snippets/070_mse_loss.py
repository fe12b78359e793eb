import torch
import torch.nn as nn

pred = torch.tensor([2.5, 0.0, 2.0, 8.0], requires_grad=True)
target = torch.tensor([3.0, -0.5, 2.0, 7.0])
loss_fn = nn.MSELoss()
loss = loss_fn(pred, target)
print(loss)
loss.backward()
print(pred.grad)
print(nn.MSELoss(reduction='sum')(pred, target))
print(nn.MSELoss(reduction='none')(pred, target))
