import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
loss1 = (w ** 2).sum()
loss2 = (3 * w).sum()
total = loss1 + 0.5 * loss2
total.backward()
print(total, w.grad)
w.grad.zero_()
loss1 = (w ** 2).sum()
loss2 = (3 * w).sum()
loss1.backward()
loss2.backward()
print(w.grad)
