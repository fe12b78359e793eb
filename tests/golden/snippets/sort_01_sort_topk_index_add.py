# sort, argsort and topk with ties and NaN; index_add with alpha; their nodes and gradients
import torch

x = torch.tensor([3., 1., 2., 1., float("nan"), 3.], requires_grad=True)
print(x.sort())
print(torch.sort(x, descending=True, stable=True))
print(x.argsort(), torch.argsort(x, descending=True))
print(x.topk(3), x.topk(2, largest=False, sorted=False))
print(torch.tensor([5, 5, 1, 5]).topk(2).indices, torch.tensor([2, 2, 2, 2, 2]).topk(3, sorted=False).indices)
torch.manual_seed(0)
m = torch.randint(0, 3, (4, 70)).float()
print(m.topk(2).indices)
print(m.topk(3, dim=0, sorted=False).indices[:, :12])
print(m.topk(5, largest=False).indices)

values, indices = x.sort(descending=True)
fn = values.grad_fn
print(fn, fn._saved_dim, fn._saved_self_sym_sizes, fn._saved_indices)
(values[1:] * torch.arange(1., 6.)).sum().backward()
print(x.grad)

w = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)
top = w.topk(2, dim=1)
g, = torch.autograd.grad((top.values ** 2).sum(), w, create_graph=True)
print(g)
g.sum().backward()
print(w.grad, top.values.grad_fn)

a = torch.zeros(3, 2, requires_grad=True)
src = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
out = a.index_add(0, torch.tensor([2, 0, 2]), src, alpha=-2)
print(out)
fn = out.grad_fn
print(fn, fn._saved_alpha, fn._saved_dim, fn._saved_index, fn._saved_source_dim)
(out * torch.tensor([[1.], [10.], [100.]])).sum().backward()
print(a.grad, src.grad)
b = torch.ones(2, 3)
print(b.index_add_(1, torch.tensor([0, 0]), torch.tensor([[1., 2.], [3., 4.]])), b._version)
print(torch.msort(torch.tensor([[3., 1.], [1., 2.], [2., 0.]])))
try:
    torch.tensor([1, 2]).index_add(0, torch.tensor([0]), torch.tensor([1.]))
except RuntimeError as e:
    print(type(e).__name__, e)
try:
    x.topk(7)
except RuntimeError as e:
    print(type(e).__name__, e)
