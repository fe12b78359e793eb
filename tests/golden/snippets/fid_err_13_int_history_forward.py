import torch


def attempt(name, f):
    try:
        r = f()
        print(name, r.dtype, r.requires_grad, r.grad_fn.name() if r.grad_fn is not None else None)
    except Exception as e:
        print(name, type(e).__name__, e)


x = torch.tensor([1.5, -2.0, 3.0], requires_grad=True)


def fresh():
    # An integer tensor given history by an in-place write of a tensor that requires grad.
    a = torch.tensor([[0, -3], [2, -2], [-1, 0]])
    a[0] = x.amax(-1)
    return a


# Out-of-place ops that would record history on an integer result refuse (PyTorch's set_history);
# in-place ones, casts to float, and ops without a derivative go on.
for name, f in [("sum", lambda a: a.sum()), ("neg", lambda a: -a), ("index", lambda a: a[0]), ("view", lambda a: a.view(6)),
                ("mul 2", lambda a: a * 2), ("cat", lambda a: torch.cat([a, a])), ("unbind", lambda a: a.unbind(0)[0]),
                ("max(dim)", lambda a: a.max(0)[0]), ("float", lambda a: a.float()), ("long", lambda a: a.long()),
                ("to int32", lambda a: a.to(torch.int32)), ("argmax", lambda a: a.argmax()), ("gt", lambda a: a > 0),
                ("floor_divide", lambda a: a // 2), ("detach", lambda a: a.detach()), ("add_", lambda a: a.add_(1)),
                ("mul_", lambda a: a.mul_(2)), ("unsqueeze_", lambda a: a.unsqueeze_(0))]:
    attempt(name, lambda: f(fresh()))
attempt("grad of sum", lambda: torch.autograd.grad(fresh().sum(), [torch.ones(2)]))
