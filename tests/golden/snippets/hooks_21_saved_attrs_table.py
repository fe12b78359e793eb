# Every _saved_* attribute of common grad_fn nodes: tensors, scalars, dims (negative dims read as uint64), sizes
import torch
import torch.nn.functional as F

M = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], requires_grad=True)
N = torch.ones(3, 2, requires_grad=True)
T = torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]])


def describe(y):
    g = y.grad_fn
    items = []
    for name in sorted(n for n in dir(g) if n.startswith("_saved")):
        v = getattr(g, name)
        if isinstance(v, torch.Tensor):
            v = f"tensor{tuple(v.shape)}" + (" is M" if v is M else "") + (" is N" if v is N else "")
        items.append(f"{name[7:]}={v}")
    print(type(g).__name__ + ":", ", ".join(items))


for y in [M * 2, M * 2.5, M * T, M / N.t(), torch.add(M, M, alpha=-2), 1 - M, M ** 2, 2 ** M, M ** N.t(),
          M.exp(), M.abs().log(), M.sin(), M.cos(), M.tanh(), M.sigmoid(), M.relu(), M.abs().sqrt(),
          M.mm(N), torch.addmm(torch.zeros(2), M, N), M.sum(), M.sum(1), M.sum(-1, keepdim=True),
          M.mean(), M.mean((0, 1)), M.max(), M.max(-1)[0], M.prod(1), M.clamp(-1, 2), torch.maximum(M, T),
          torch.where(M > 0, M, T), F.leaky_relu(M, 0.2), F.elu(M), F.gelu(M, approximate="tanh"),
          F.mse_loss(M, T), M.softmax(1), M.log_softmax(-1), M.view(6), M.expand(4, 2, 3),
          M.unsqueeze(0).squeeze(0), M.repeat(2, 1), M.permute(-1, 0), M.transpose(0, 1), M.t()]:
    describe(y)
