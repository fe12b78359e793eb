# torch.autograd.grad(..., is_grads_batched=True): each row of grad_outputs is one vector-Jacobian
# product (the Jacobian from the identity), with PyTorch's checks; and the old `functorch` package,
# whose transforms warn that they moved to torch.func
import warnings
import torch

x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x ** 2
(jac,) = torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True, retain_graph=True)
print(jac)
w = torch.tensor([[0.1, -0.2], [0.3, 0.05], [-0.15, 0.2]], requires_grad=True)
out = (x @ w).tanh()
gx, gw = torch.autograd.grad(out, (x, w), torch.eye(2), is_grads_batched=True, retain_graph=True)
print(gx, gw.shape)
z = torch.tensor(1., requires_grad=True)
print(torch.autograd.grad(y, (x, z), torch.eye(3), is_grads_batched=True, retain_graph=True, allow_unused=True))
print(torch.autograd.grad(y, (x, z), torch.eye(3), is_grads_batched=True, retain_graph=True, materialize_grads=True))
print(torch.autograd.grad((y, y.sum()), x, (torch.eye(3), torch.ones(3)), is_grads_batched=True, retain_graph=True))
print(torch.autograd.grad(y.sum(), x, torch.tensor([1., 2.]), is_grads_batched=True, retain_graph=True))
for gos in (torch.ones(2, 4), torch.ones(3), torch.tensor(1.), None):
    try:
        torch.autograd.grad(y, x, gos, is_grads_batched=True, retain_graph=True)
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__, e)
for call in (lambda: torch.autograd.grad(y.sum(), x, None, is_grads_batched=True, retain_graph=True),
             lambda: torch.autograd.grad(y, (x, z), torch.eye(3), is_grads_batched=True, retain_graph=True),
             lambda: torch.autograd.grad((y, y.sum()), x, (torch.eye(3), torch.ones(2)), is_grads_batched=True)):
    try:
        call()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
(g,) = torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True, create_graph=True)
print(g.requires_grad, torch.autograd.grad(g.sum(), x))

import functorch
print(functorch.__version__ == torch.__version__)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    warnings.filterwarnings("ignore", message="`torch.jit.script` is deprecated")  # torch's forward AD, once
    v = torch.tensor([0.5, -1.0])
    print(functorch.grad(lambda t: t.sin().sum())(v))
    print(functorch.vmap(torch.dot)(torch.eye(2), torch.ones(2, 2)))
    print(functorch.jacrev(torch.sin)(v), functorch.jacfwd(torch.sin)(v))
    print(functorch.hessian(lambda t: (t ** 3).sum())(v))
    print(functorch.vjp(torch.sin, v)[0], functorch.jvp(torch.sin, (v,), (torch.ones(2),)))
    print(functorch.grad_and_value(lambda t: (t * t).sum())(v))
for w in caught:
    print(w.category.__name__, w.message)
