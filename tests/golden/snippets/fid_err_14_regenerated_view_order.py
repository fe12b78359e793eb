import torch

# A view made stale by a no_grad write gets its regenerated node (AsStridedBackward0) when it is next
# read, after the nodes made in between: it runs first in backward, and its gradient, a view into a
# fresh storage, is not added into in place (version 0).
for name, f in [("where", lambda v, e: 1 / torch.where(e > 0, e, v.cumsum(-2))),
                ("add", lambda v, e: v.cumsum(-2) + e),
                ("mul", lambda v, e: v.exp() * e)]:
    v0 = torch.tensor([[-1.38], [-2.0], [0.5]], requires_grad=True)
    e = v0.expand_as(v0)
    with torch.no_grad():
        v0[torch.tensor([[False], [True], [False]])] = 0.5
    y = f(v0, e)
    g, = torch.autograd.grad(y.sum(), [v0])
    print(name, g._version, g.tolist(), e.grad_fn.name())
