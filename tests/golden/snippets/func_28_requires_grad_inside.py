import torch
from torch.func import grad, vmap

# requires_grad_() inside a transformed function is refused; the setter, Parameters and
# factories with requires_grad=True are not
def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)


def leaf_method(x):
    y = torch.ones(3)
    y.requires_grad_()
    return (x * y).sum()


def input_method(x):
    x.requires_grad_()
    return x.sum()


def nonleaf_method(x):
    y = x * 2
    y.requires_grad_()
    return y.sum()


def switch_off(x):
    y = torch.ones(3)
    y.requires_grad_(False)
    return (x * y).sum()


def setter(x):
    y = torch.ones(3)
    y.requires_grad = True
    return (x * y).sum()


def parameter(x):
    p = torch.nn.Parameter(torch.ones(3))
    return (x * p).sum()


def factory(x):
    y = torch.ones(3, requires_grad=True)
    return (x * y).sum()


x = torch.ones(3)
for f in (leaf_method, input_method, nonleaf_method, switch_off):
    attempt(lambda: grad(f)(x))
for f in (setter, parameter, factory):  # allowed
    attempt(lambda: grad(f)(x).tolist())
attempt(lambda: vmap(input_method)(torch.ones(2, 3)))
# outside a transform it is fine again
y = torch.ones(2)
print(y.requires_grad_())
print(grad(grad(lambda t: t ** 3))(torch.tensor(2.)))
