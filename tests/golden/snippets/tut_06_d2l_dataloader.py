# d2l 3.3 的原版读取数据方式：TensorDataset + DataLoader(shuffle=True)
import torch
from torch import nn
from torch.utils import data

torch.manual_seed(3)
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features = torch.normal(0, 1, (100, 2))
labels = (torch.matmul(features, true_w) + true_b).reshape((-1, 1))
labels += torch.normal(0, 0.01, labels.shape)


def load_array(data_arrays, batch_size, is_train=True):
    """构造一个PyTorch数据迭代器"""
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)


data_iter = load_array((features, labels), 10)
print(next(iter(data_iter)))

net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)
num_epochs = 3
for epoch in range(num_epochs):
    for X, y in data_iter:
        l = loss(net(X), y)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(features), labels)
    print(f'epoch {epoch + 1}, loss {l:f}')
