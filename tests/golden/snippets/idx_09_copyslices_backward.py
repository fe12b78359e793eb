import torch


def walk(fn, depth=0):
    if fn is None or depth > 4:
        return
    print("  " * depth + type(fn).__name__)
    for f, _ in fn.next_functions:
        walk(f, depth + 1)


x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
w = torch.tensor([7.0, 8.0, 9.0], requires_grad=True)
for write in (lambda y: y.__setitem__(1, w * 2), lambda y: y.__setitem__((0, [0, 2]), w[1:]),
              lambda y: y.__setitem__(y > 4, 0.5), lambda y: y[:, 1:].fill_(w[0])):
    y = x * 1
    write(y)
    gx, gw = torch.autograd.grad((y * y).sum(), [x, w], create_graph=True, allow_unused=True, materialize_grads=True)
    print(gx.tolist(), gw.tolist())
    walk(gx.grad_fn)
    walk(gw.grad_fn)
    print(torch.autograd.grad((gx ** 2).sum() + (gw ** 2).sum(), [x, w], allow_unused=True))

y = x.clone()
y[1] = w
gx, gw = torch.autograd.grad(y.sum(), [x, w])
print(gx._version, gw._version)
try:
    torch.autograd.grad(y.sum(), [x, w])
except RuntimeError as e:
    print(e)
