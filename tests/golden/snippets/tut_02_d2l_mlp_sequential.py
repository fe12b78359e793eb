# 多层感知机的简洁实现（改编自 d2l 4.3 节），数据换成随机张量
import torch
from torch import nn

torch.manual_seed(42)
net = nn.Sequential(nn.Flatten(),
                    nn.Linear(16, 32),
                    nn.ReLU(),
                    nn.Linear(32, 3))


def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)


net.apply(init_weights)
print(net)

X = torch.randn(64, 4, 4)
y = torch.randint(0, 3, (64,))
print(X.shape, y[:10])

lr = 0.1
loss = nn.CrossEntropyLoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9)

for epoch in range(100):
    l = loss(net(X), y)
    trainer.zero_grad()
    l.mean().backward()
    trainer.step()
    if (epoch + 1) % 10 == 0:
        acc = (net(X).argmax(dim=1) == y).float().mean()
        print(f'epoch {epoch + 1}, loss {l.mean().item():.4f}, train acc {acc:.3f}')
