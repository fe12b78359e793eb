# A micrograd-style MLP written with torch, with random init and a hinge loss on a toy set
import torch

torch.manual_seed(1337)
xs = torch.tensor([[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]])
ys = torch.tensor([1.0, -1.0, -1.0, 1.0])

W1 = (torch.rand(3, 4) * 2 - 1).requires_grad_()
b1 = torch.zeros(4, requires_grad=True)
W2 = (torch.rand(4, 1) * 2 - 1).requires_grad_()
b2 = torch.zeros(1, requires_grad=True)
params = [W1, b1, W2, b2]
print(sum(p.numel() for p in params))

for k in range(20):
    ypred = (torch.tanh(xs @ W1 + b1) @ W2 + b2).squeeze(1)
    loss = ((ypred - ys) ** 2).sum()
    for p in params:
        p.grad = None
    loss.backward()
    for p in params:
        p.data += -0.05 * p.grad
    if k % 5 == 4:
        print(k, loss.item())
print(ypred)
