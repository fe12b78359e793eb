import torch
import torch.nn.functional as F
from torch.func import jacrev, jacfwd, vjp, hessian

# "Jacobians, Hessians, hvp, vhp, and more" tutorial, on small sizes
torch.manual_seed(0)

def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()

D = 4
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)

jacobian = jacrev(predict, argnums=2)(weight, bias, x)
print(jacobian.shape)
print(jacobian)

# the same, row by row with vjp
_, vjp_fn = vjp(lambda x: predict(weight, bias, x), x)
unit_vectors = torch.eye(D)
rows = [vjp_fn(v)[0] for v in unit_vectors]
print(torch.allclose(torch.stack(rows), jacobian))

jacfwd_out = jacfwd(predict, argnums=2)(weight, bias, x)
print(torch.allclose(jacfwd_out, jacobian))

ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
print(ft_jac_bias)

hess_api = hessian(predict, argnums=2)(weight, bias, x)
hess_fwdfwd = jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
hess_revrev = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
print(hess_api.shape)
print(torch.allclose(hess_api, hess_fwdfwd), torch.allclose(hess_api, hess_revrev))
print(hess_api[0])
