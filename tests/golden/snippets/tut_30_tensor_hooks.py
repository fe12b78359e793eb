# 张量钩子：查看和修改中间变量的梯度
import torch

torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x * 2
z = y.pow(2).sum()


def print_grad(grad):
    print("y 的梯度:", grad)


h = y.register_hook(print_grad)
z.backward()
print("x.grad:", x.grad)
h.remove()

x.grad.zero_()
y = x * 2
y.register_hook(lambda grad: grad * 0)  # 把梯度清零
y.sum().backward()
print(x.grad)

# 钩子作用在叶子节点上：修改后的梯度写进 .grad
w = torch.ones(2, requires_grad=True)
w.register_hook(lambda g: g * 10)
(w * torch.tensor([1.0, 2.0])).sum().backward()
print(w.grad)

grads = {}


def save_grad(name):
    def hook(grad):
        grads[name] = grad
    return hook


a = torch.rand(2, requires_grad=True)
b = a.exp()
b.register_hook(save_grad('b'))
b.sum().backward()
print(grads['b'], torch.allclose(a.grad, b))
