import torch
import torch.nn.functional as F

p = torch.tensor([0.9, 0.2, 0.6], requires_grad=True)
y = torch.tensor([1.0, 0.0, 1.0])
print(F.binary_cross_entropy(p, y))
print(F.binary_cross_entropy_with_logits(torch.tensor([2.0, -1.0, 0.0]), y))
print(F.l1_loss(p, y), F.smooth_l1_loss(p * 3, y))
logp = F.log_softmax(torch.tensor([[1.0, 2.0], [0.0, 0.0]]), dim=1)
print(F.nll_loss(logp, torch.tensor([1, 0])))
loss = F.mse_loss(p, y) + F.l1_loss(p, y)
loss.backward()
print(p.grad)
