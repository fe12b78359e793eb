import torch
from torch.func import grad

# torch.func.grad docs: has_aux returns auxiliary values next to the gradient
def my_loss_func(y, y_pred):
    loss_per_sample = (0.5 * y_pred - y) ** 2
    loss = loss_per_sample.mean()
    return loss, (y_pred, loss_per_sample)

fn = grad(my_loss_func, argnums=(0, 1), has_aux=True)
y_true = torch.tensor([1., 2., 3.])
y_preds = torch.tensor([1.5, 2.5, 2.0], requires_grad=False)
loss_grads, (y_pred, loss_per_sample) = fn(y_true, y_preds)
print(loss_grads)
print(y_pred)
print(loss_per_sample)
print(loss_per_sample.requires_grad)

g, aux = grad(lambda x: ((x ** 2).sum(), x.sin()), has_aux=True)(torch.tensor([0.5, 1.0]))
print(g, aux)
g, aux = grad(lambda x: ((x ** 2).sum(), {"double": 2 * x, "list": [x + 1]}), has_aux=True)(torch.tensor([0.5, 1.0]))
print(g)
print(aux)
