# Seed note 002: the question's snippet. The original x came from torch.randn;
# a fixed x keeps the output reproducible.
import torch
from torch.autograd import Variable

x = Variable(torch.FloatTensor([0.5, -1.0, 2.0]), requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
gradients = torch.FloatTensor([0.1, 1.0, 0.0001])
y.backward(gradients)
print(x.grad)
