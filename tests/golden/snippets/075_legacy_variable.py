import torch
from torch.autograd import Variable

v = Variable(torch.FloatTensor([[1, 2], [3, 4]]), requires_grad=True)
print(v)
print(type(v).__name__, v.requires_grad, v.is_leaf)
out = (v * v).mean()
out.backward()
print(v.grad)
print(v.data)
print(Variable(torch.ones(2)).requires_grad)
print(isinstance(v, torch.Tensor))
