import torch
from torch.func import grad_and_value

# torch.func.grad_and_value docs: the gradient and the value in one call
torch.manual_seed(0)
x = torch.randn([])
g, value = grad_and_value(lambda x: torch.sin(x))(x)
print(g, value)
print(torch.allclose(g, x.cos()), torch.allclose(value, x.sin()))

def f(x, y):
    return (x * y).sum()

a = torch.tensor([1., 2.])
b = torch.tensor([3., 4.])
print(grad_and_value(f, argnums=(0, 1))(a, b))

def my_loss_func(y, y_pred):
    loss_per_sample = (0.5 * y_pred - y) ** 2
    loss = loss_per_sample.mean()
    return loss, (y_pred, loss_per_sample)

(gy, gpred), (loss, (y_pred, per_sample)) = grad_and_value(my_loss_func, argnums=(0, 1), has_aux=True)(
    torch.tensor([1., 2.]), torch.tensor([1.5, 5.0]))
print(gy, gpred)
print(loss, y_pred, per_sample)
print(value.requires_grad, loss.requires_grad)
