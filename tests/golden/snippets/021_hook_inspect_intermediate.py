import torch

grads = {}

def save_grad(name):
    def hook(grad):
        grads[name] = grad
    return hook

x = torch.tensor([1.0, -2.0], requires_grad=True)
y = 3 * x
z = y ** 2
y.register_hook(save_grad("y"))
z.register_hook(save_grad("z"))
z.mean().backward()
print(grads["z"])
print(grads["y"])
print(x.grad)
print(y.grad)
