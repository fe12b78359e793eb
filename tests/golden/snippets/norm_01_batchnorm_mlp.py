# An MLP with BatchNorm1d trained for a few SGD steps (the d2l / PyTorch-tutorial pattern), then
# switched to eval: outputs, gradients, running statistics, reprs, grad_fn names and a learner's error
import torch
from torch import nn

torch.manual_seed(0)
X = torch.randn(16, 3)
y = (X[:, :1] * 2 - X[:, 1:2]).clone()

net = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
print(net)
opt = torch.optim.SGD(net.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
for epoch in range(5):
    opt.zero_grad()
    out = net(X)
    loss = loss_fn(out, y)
    loss.backward()
    opt.step()
    print(epoch, loss.item())

bn = net[1]
print(bn.running_mean)
print(bn.running_var)
print(bn.num_batches_tracked)
print(bn.weight.grad)
print(bn.bias.grad)
print(net[0].weight.grad)
h = net[1](net[0](X))
print(h.grad_fn, h.grad_fn.next_functions[0][0].name())
print(list(net.state_dict().keys()))

net.eval()
with torch.no_grad():
    print(net(X[:3]))
print(net[1](net[0](X[:2])))

net.train()
try:
    net(X[:1])
except ValueError as e:
    print("ValueError:", e)

cum = nn.BatchNorm1d(3, momentum=None, affine=False)
for k in range(4):
    cum(torch.randn(6, 3) * (k + 1))
print(cum, cum.running_mean, cum.running_var)
