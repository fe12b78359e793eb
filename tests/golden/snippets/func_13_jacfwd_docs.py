import torch
from torch.func import jacfwd


def diag(v):  # the diagonal matrix of v, as torch.diag(v)
    return torch.eye(len(v)) * v


# torch.func.jacfwd docs examples
torch.manual_seed(0)
x = torch.randn(5)
jacobian = jacfwd(torch.sin)(x)
expected = diag(torch.cos(x))
print(jacobian)
print(torch.allclose(jacobian, expected))

def f(x):
    return x.sin()

def g(x):
    result = f(x)
    return result, result

jacobian_f, f_x = jacfwd(g, has_aux=True)(x)
print(torch.allclose(f_x, f(x)))

def f(x):
    return x.sin().sum()

x = torch.randn(5)
hessian = jacfwd(jacfwd(f))(x)
print(hessian)
print(torch.allclose(hessian, diag(-x.sin())))

def f(x, y):
    return x + y ** 2

x, y = torch.randn(5), torch.randn(5)
jacobian = jacfwd(f, argnums=1)(x, y)
expected = diag(2 * y)
print(torch.allclose(jacobian, expected))
jac_x, jac_y = jacfwd(f, argnums=(0, 1))(x, y)
print(torch.allclose(jac_x, diag(torch.ones_like(x))))
print(torch.allclose(jac_y, diag(2 * y)))
