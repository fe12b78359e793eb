# 《深度学习框架PyTorch：入门与实践》第三章 autograd（改编）
import torch as t

t.manual_seed(1000)
x = t.ones(1)
b = t.rand(1, requires_grad=True)
w = t.rand(1, requires_grad=True)
y = w * x  # 等价于y=w.mul(x)
z = y + b  # 等价于z=y.add(b)

print(x.requires_grad, b.requires_grad, w.requires_grad)
# 虽然未指定y.requires_grad为True，但由于y依赖于需要求导的w，故而y.requires_grad为True
print(y.requires_grad)
print(x.is_leaf, w.is_leaf, b.is_leaf)
print(y.is_leaf, z.is_leaf)
# grad_fn可以查看这个variable的反向传播函数
print(z.grad_fn)
# next_functions保存grad_fn的输入
print(z.grad_fn.next_functions)
print(z.grad_fn.next_functions[0][0] == y.grad_fn)
print(y.grad_fn.next_functions)
# 叶子节点的grad_fn是None
print(w.grad_fn, x.grad_fn)

z.backward(retain_graph=True)
print(w.grad)
# 多次反向传播，梯度累加
z.backward()
print(w.grad)


def variable_hook(grad):
    print('y的梯度：', grad)


x = t.ones(3, requires_grad=True)
w = t.rand(3, requires_grad=True)
y = x * w
# 注册hook
hook_handle = y.register_hook(variable_hook)
z = y.sum()
z.backward()
# 除非你每次都要用hook，否则用完之后记得移除hook
hook_handle.remove()
print(x.grad)

# 计算 y = x^2 * e^x 的导数，并与手动推导的结果比较
def f(x):
    return x ** 2 * t.exp(x)


def gradf(x):
    return 2 * x * t.exp(x) + x ** 2 * t.exp(x)


x = t.randn(3, 4, requires_grad=True)
y = f(x)
y.backward(t.ones(y.size()))  # gradient形状与y一致
print(x.grad)
print(gradf(x))
print(t.allclose(x.grad, gradf(x)))
