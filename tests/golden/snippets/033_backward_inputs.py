import torch

x = torch.tensor(1.0, requires_grad=True)
w = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
loss = (w * x + b) ** 2
torch.autograd.backward(loss, inputs=[w], retain_graph=True)
print(x.grad, w.grad, b.grad)
loss.backward(inputs=[x, b])
print(x.grad, w.grad, b.grad)
