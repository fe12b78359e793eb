import torch
import torch.nn.functional as F

logits = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]], requires_grad=True)
p = F.softmax(logits, dim=1)
print(p)
print(p.sum(dim=1))
lp = torch.log_softmax(logits, dim=-1)
print(lp)
lp[:, 0].sum().backward()
print(logits.grad)
print(logits.softmax(0))
