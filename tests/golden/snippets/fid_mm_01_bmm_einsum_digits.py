# bmm, batched matmul and einsum add each matrix of a batch as mm adds it (MKL's order for small
# float32 products): every digit of .tolist() shows it, in the forward and in the gradients.
import torch

torch.manual_seed(3)
a = torch.randn(4, 5, requires_grad=True)
b = torch.randn(5, 3, requires_grad=True)
c = torch.einsum('ij,jk->ik', a, b)
print(c.tolist())
c.sum().backward()
print(a.grad.tolist(), b.grad.tolist())

q = torch.randn(2, 3, 4, requires_grad=True)
k = torch.randn(2, 3, 4, requires_grad=True)
scores = torch.bmm(q, k.transpose(1, 2)) / 2.0
print(scores.tolist())
att = torch.einsum('bqd,bkd->bqk', q, k)
print(att.tolist())
(scores.softmax(-1) @ k).sum().backward()
print(q.grad.tolist())
x = torch.randn(2, 3, 4)
w = torch.randn(4, 5)
with torch.no_grad():
    print(torch.matmul(x, w).tolist())
