# LeNet after manual_seed: PyTorch's default init, one forward and backward, the grads it leaves
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = self.flatten(x)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


net = LeNet()
print(net)
print(net.conv1.weight[0, 0])
print(net.conv1.bias)
print(net.conv2.weight.shape, net.conv2.weight[3, 2, 1])

images = torch.randn(4, 1, 32, 32)
labels = torch.tensor([3, 1, 4, 1])
out = net(images)
print(out.shape)
loss = F.cross_entropy(out, labels)
print(loss)
loss.backward()
print(net.conv1.weight.grad[0, 0])
print(net.conv1.bias.grad)
print(net.conv2.weight.grad[5, 1, :, :2])
print(net.conv2.bias.grad)

fn = out.grad_fn
names = []
while fn is not None:
    names.append(type(fn).__name__)
    fn = next((f for f, _ in fn.next_functions if f is not None and type(f).__name__ != "AccumulateGrad"), None)
print(" <- ".join(names))

opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(net(images), labels)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
