# _saved_* of indexing nodes: SelectBackward0 (dim, index) and SliceBackward0 (start, end, step), chained per index
import torch

M = torch.ones(3, 4, requires_grad=True)
for y in [M[0], M[1:], M[:, 1], M[0, 1:], M[-1], M[:, -2:], M[::2], M.narrow(1, 1, 2), M.select(1, -1),
          M[..., 0], M[None, 0], M[1:3, ::3]]:
    g = y.grad_fn
    chain = []
    while g is not None and g.name() in ("SelectBackward0", "SliceBackward0", "UnsqueezeBackward0"):
        chain.append((g.name(), {a[7:]: getattr(g, a) for a in sorted(dir(g)) if a.startswith("_saved")}))
        g = g.next_functions[0][0]
    print(chain)
y = M[1:, 2]
y.sum().backward()
print(M.grad)
print(y.grad_fn._saved_index, y.grad_fn.next_functions[0][0]._saved_start)
