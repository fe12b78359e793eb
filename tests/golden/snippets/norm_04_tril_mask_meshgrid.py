# The causal mask of attention tutorials (torch.tril, masked_fill, softmax), triu and tril_ with a
# gradient, and meshgrid as plotting and positional-encoding code calls it (with and without indexing=)
import torch

T = 4
tril = torch.tril(torch.ones(T, T))
print(tril)
wei = torch.zeros(T, T).masked_fill(tril == 0, float('-inf'))
print(torch.softmax(wei, dim=-1))

x = torch.arange(1., 13.).reshape(3, 4).requires_grad_()
y = x.triu(diagonal=1) + x.tril(-1) * 2
print(y, y.grad_fn)
y.pow(2).sum().backward()
print(x.grad)
z = x.detach().clone()
z.tril_(1)
print(z)
try:
    torch.triu(torch.ones(5))
except RuntimeError as e:
    print("RuntimeError:", e)

a = torch.linspace(0, 1, 3, requires_grad=True)
b = torch.tensor([10., 20.])
gx, gy = torch.meshgrid(a, b)
print(gx, gy, gx.grad_fn)
xx, yy = torch.meshgrid(a, b, indexing='xy')
print(xx.shape, yy)
(xx * yy).sum().backward()
print(a.grad)
print(torch.stack(torch.meshgrid(torch.arange(2), torch.arange(3), indexing='ij'), dim=-1))
