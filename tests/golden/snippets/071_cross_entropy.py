import torch
import torch.nn as nn

logits = torch.tensor([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]], requires_grad=True)
target = torch.tensor([0, 2])
criterion = nn.CrossEntropyLoss()
loss = criterion(logits, target)
print(loss)
loss.backward()
print(logits.grad)
print(nn.CrossEntropyLoss(reduction='none')(logits, target))
criterion(logits, torch.tensor([0.0, 2.0]))
