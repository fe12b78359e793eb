# _saved_* of joining, splitting and scanning nodes: dims as the user wrote them (negative ones read as uint64)
import torch

M = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], requires_grad=True)
outs = [torch.cat([M, M], -1), torch.cat([M, M]), torch.stack([M, M], 1), M.unbind(-1)[0], M.split(2, 1)[0],
        M.split([1, 2], -1)[0], M.flip(0), M.flip([-1, 0]), M.unsqueeze(-1), M.cumsum(-1),
        M.gather(1, torch.tensor([[0], [2]])), M.logsumexp(1), M.logsumexp(-1, keepdim=True)]
for y in outs:
    g = y.grad_fn
    saved = {}
    for name in sorted(dir(g)):
        if name.startswith("_saved"):
            v = getattr(g, name)
            saved[name[7:]] = f"tensor{tuple(v.shape)}" if isinstance(v, torch.Tensor) else v
    print(type(g).__name__, saved)
sum(o.sum() for o in outs).backward()
print(M.grad)
print(outs[10].grad_fn._saved_dim, outs[10].grad_fn._saved_sparse_grad)
print(outs[10].grad_fn._saved_index)
