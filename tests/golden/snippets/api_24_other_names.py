# PyTorch's other names for the same ops, as tutorials and answers use them
import torch

x = torch.tensor([[0.5, -1.5, 2.25], [3.0, -0.75, 1.0]], requires_grad=True)
y = torch.tensor([[1.0, 0.0, -2.0], [0.5, 0.5, 0.5]])
print(torch.swapdims(x, 0, 1))
print(x.fix(), torch.fix(x).grad_fn)
print(x.absolute().grad_fn, x.where(y > 0, y), x.where(y > 0, 0.0).grad_fn)
print(x.broadcast_to((2, 2, 3)).shape, x.addmm(torch.ones(2, 4), torch.ones(4, 3) * 0.5))
r = torch.ravel(x)
print(r, r._base is x, x.t().ravel().grad_fn, x.t().ravel().grad_fn.next_functions[0][0])
print(torch.positive(x) is x, x.positive() is x)
print(torch.greater(x, y), x.less_equal(y), torch.not_equal(x, y).sum(), x.greater_equal(y).dtype)
(x.swapdims(0, 1) * torch.arange(6.).view(3, 2)).sum().backward()
print(x.grad)
try:
    torch.positive(torch.tensor([True, False]))
except RuntimeError as e:
    print(type(e).__name__, e)
z = torch.tensor([1.5, -2.5])
z.fix_()
print(z, torch.fix(torch.tensor([3, -4])))
