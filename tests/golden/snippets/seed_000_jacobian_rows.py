# Seed notes 000/003: gradient as a one-hot selector, building the Jacobian
# of out = x @ a one row at a time with retain_graph=True.
import torch
from torch.autograd import Variable

x = Variable(torch.ones(2, 3), requires_grad=True)
a = Variable(torch.ones(3, 4))
out = torch.mm(x, a)
rows = []
for i in range(out.numel()):
    onehot = torch.zeros(out.numel())
    onehot[i] = 1
    out.backward(onehot.view(2, 4), retain_graph=True)
    rows.append(x.grad.view(-1).clone())
    x.grad.data.zero_()
print(torch.stack(rows))
