# LayerNorm as the transformer tutorials use it (normalizing each token's embedding), checked by hand
# against the formula, trained in a small MLP, with the shape error a learner meets first
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(7)
batch, tokens, dim = 2, 3, 10
emb = torch.randn(batch, tokens, dim, requires_grad=True)
ln = nn.LayerNorm(dim)
print(ln)
out = ln(emb)
print(out[0, 1])
print(out.mean(-1), out.var(-1, unbiased=False))
manual = (emb - emb.mean(-1, keepdim=True)) / torch.sqrt(emb.var(-1, unbiased=False, keepdim=True) + 1e-5)
print(torch.allclose(out, manual, atol=1e-6), out.grad_fn)
(out * torch.arange(10.)).sum().backward()
print(emb.grad[1, 2])
print(ln.weight.grad, ln.bias.grad)

img = torch.randn(2, 3, 4, 4)
print(F.layer_norm(img, img.shape[1:])[1, 0, 0])
print(nn.LayerNorm([4, 4], elementwise_affine=False)(img)[0, 2, 3])

X = torch.randn(16, 3)
y = X[:, :1] - 2 * X[:, 2:]
net = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.ReLU(), nn.Linear(4, 1))
opt = torch.optim.Adam(net.parameters(), lr=0.05)
for step in range(4):
    opt.zero_grad()
    loss = F.mse_loss(net(X), y)
    loss.backward()
    opt.step()
    print(step, loss.item())
print(net[1].weight, net[1].bias)
try:
    nn.LayerNorm(5)(torch.randn(2, 4))
except RuntimeError as e:
    print("RuntimeError:", e)
