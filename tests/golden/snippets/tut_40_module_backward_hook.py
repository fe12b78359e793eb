# 模块的反向钩子：register_full_backward_hook 打印梯度形状
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))


def backward_hook(module, grad_input, grad_output):
    print(module.__class__.__name__, "grad_output:", [g.shape for g in grad_output])
    print(module.__class__.__name__, "grad_input:", [None if g is None else g.shape for g in grad_input])


for layer in net:
    layer.register_full_backward_hook(backward_hook)

x = torch.randn(2, 3, requires_grad=True)
net(x).sum().backward()
print(x.grad)
