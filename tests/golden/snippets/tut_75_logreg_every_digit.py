# Logistic regression written out by hand (sigmoid, binary_cross_entropy, a manual SGD step under
# no_grad), printing every digit of loss.item(), as blog posts do
import torch

torch.manual_seed(1)
x = torch.randn(32, 3)
t = (x[:, 0] > 0).float().unsqueeze(1)
w = torch.randn(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)

for i in range(20):
    p = torch.sigmoid(x @ w + b)
    loss = torch.nn.functional.binary_cross_entropy(p, t)
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        b -= 0.5 * b.grad
        w.grad.zero_()
        b.grad.zero_()
    if i % 5 == 0:
        print(i, loss.item())

print(w.squeeze().tolist(), b.item())
