import torch
import torch.nn.functional as F

x = torch.tensor([[-1.0, 2.0], [0.5, 3.0]], requires_grad=True)
w = torch.tensor([[1.0, 0.0], [0.0, 1.0]], requires_grad=True)
ops = {
    "x.sum()": x.sum(), "x.sum(0)": x.sum(0), "x.mean()": x.mean(),
    "x.mean(1)": x.mean(1), "x.max()": x.max(), "x.max(0)[0]": x.max(0)[0],
    "x.min()": x.min(), "x.prod()": x.prod(), "x.norm()": x.norm(),
    "x.relu()": x.relu(), "x.sigmoid()": x.sigmoid(), "x.tanh()": x.tanh(),
    "x.clamp(0, 1)": x.clamp(0, 1), "x.clamp(min=0)": x.clamp(min=0),
    "x @ w": x @ w, "x[0] @ w[0]": x[0] @ w[0], "x.mm(w)": x.mm(w),
    "w.mv(x[0])": w.mv(x[0]),
    "softmax": F.softmax(x, dim=1), "log_softmax": F.log_softmax(x, dim=1),
    "mse_loss": F.mse_loss(x, w), "where": torch.where(x > 0, x, w),
}
for src, t in ops.items():
    print(f"{src:14s}", type(t.grad_fn).__name__)
