# The 0.3-era 60 Minute Blitz: Variable, .data, .grad.data and volatile
import torch
from torch.autograd import Variable

torch.manual_seed(0)
x = Variable(torch.randn(3), requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
print(y)
gradients = torch.FloatTensor([0.1, 1.0, 0.0001])
y.backward(gradients)
print(x.grad)

x.grad.data.zero_()
print(x.grad)

v = Variable(torch.randn(2, 2), volatile=True)
print(v.requires_grad)
print(Variable(torch.randn(1, 3)).data)
w = Variable(torch.FloatTensor(2, 3).normal_(), requires_grad=True)
print(w.size(), w.data.type())
