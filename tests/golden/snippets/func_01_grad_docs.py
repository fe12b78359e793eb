import torch
from torch.func import grad

# torch.func.grad docs: the derivative of sin is cos, its second derivative -sin
torch.manual_seed(0)
x = torch.randn([])
cos_x = grad(lambda x: torch.sin(x))(x)
print(cos_x, x.cos())
print(torch.allclose(cos_x, x.cos()))
neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
print(neg_sin_x, -x.sin())
print(torch.allclose(neg_sin_x, -x.sin()))
print(cos_x.requires_grad, cos_x.grad_fn)

t = torch.tensor([1., 2., 3.])
print(grad(lambda v: (v ** 2).sum())(t))
print(grad(lambda v: (v ** 3).sum())(t))
print(grad(lambda v: v.exp().sum())(torch.tensor([0., 1.])))
