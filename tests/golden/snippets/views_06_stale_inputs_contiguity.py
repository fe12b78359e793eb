# A view whose base was written under no_grad (or a multi-output view whose base was written) can't
# be differentiated: autograd.grad and backward raise PyTorch's errors. Advanced indexing gives a
# contiguous result, so view() works on it.
import torch

leaf = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
with torch.no_grad():
    u = leaf[1:]
    leaf.mul_(1)
for label, f in [("grad wrt", lambda: torch.autograd.grad(leaf.sum(), [leaf, u])),
                 ("backward from", lambda: u.sum().backward()),
                 ("root", lambda: torch.autograd.grad(u, leaf, torch.ones_like(u)))]:
    try:
        f()
    except RuntimeError as err:
        print(label, err)

b = leaf * 1
r0, r1 = b.unbind()
b.add_(1)
try:
    torch.autograd.grad(r0.sum(), leaf)
except RuntimeError as err:
    print(err)

x = torch.tensor([[2.0, 0.5, -1.0], [0.0, 1.0, 3.0]], requires_grad=True)
for key in ["x[:, [1, 1]]", "x.t()[:, [0, 0]]", "x[[1, 0], 1:]", "x[x > 0.5]", "x.t()[[2, 0]]"]:
    y = eval(key)
    print(key, tuple(y.shape), y.stride(), y.is_contiguous(), y.view(-1).tolist())
