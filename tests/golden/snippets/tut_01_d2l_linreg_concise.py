# 线性回归的简洁实现（改编自《动手学深度学习》3.3 节）
import torch
from torch import nn

torch.manual_seed(0)


def synthetic_data(w, b, num_examples):
    """生成 y = Xw + b + 噪声"""
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 1000)
print('features:', features[0], '\nlabel:', labels[0])

batch_size = 10
net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)

# 每个小批量从随机排列中取 batch_size 个样本
perm = torch.randperm(1000)
for step in range(100):
    idx = perm[step * batch_size:(step + 1) * batch_size]
    X, y = features[idx], labels[idx]
    l = loss(net(X), y)
    trainer.zero_grad()
    l.backward()
    trainer.step()
    if (step + 1) % 10 == 0:
        l = loss(net(features), labels)
        print(f'step {step + 1}, loss {l:f}')

w = net[0].weight.data
print('w的估计误差：', true_w - w.reshape(true_w.shape))
b = net[0].bias.data
print('b的估计误差：', true_b - b)
