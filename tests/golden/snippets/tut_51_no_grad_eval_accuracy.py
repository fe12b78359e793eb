# 评估模型时关闭梯度：model.eval() + torch.no_grad()
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 2))
X = torch.randn(20, 5)
y = torch.randint(0, 2, (20,))

net.eval()
with torch.no_grad():
    logits = net(X)
    pred = logits.argmax(dim=1)
print(logits.requires_grad, logits.grad_fn)
print(pred)
print('准确率:', (pred == y).float().mean().item())
print(torch.is_grad_enabled())


@torch.no_grad()
def evaluate(model, X):
    return model(X)


print(evaluate(net, X[:2]).requires_grad)
with torch.set_grad_enabled(False):
    print(net(X[:1]).requires_grad)
torch.set_grad_enabled(True)
net.train()
print(net(X[:1]).requires_grad, net.training)
