import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
y.backward(gradient=torch.tensor([0.1, 1.0, 0.0001]))
print(x.grad)
x.grad = None
y = x * x
torch.autograd.backward([y], grad_tensors=[torch.tensor([1.0, 0.0, -1.0])])
print(x.grad)
x.grad = None
y = x * x
y.backward(torch.tensor([1.0, 2.0]))
