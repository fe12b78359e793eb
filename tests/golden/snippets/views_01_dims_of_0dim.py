# A 0-dim tensor takes dim 0 or -1 as one size-1 dim: reductions, scans, flips, gathers and
# transposes over it run (and their backward too), duplicate dims are refused.
import torch

x = torch.tensor(2.0, requires_grad=True)
ops = {
    "sum(0)": lambda: x.sum(0),
    "sum(-1, keepdim)": lambda: x.sum(-1, keepdim=True),
    "mean(0)": lambda: x.mean(0),
    "prod(0)": lambda: x.prod(0),
    "amax(0)": lambda: x.amax(0),
    "amin(-1)": lambda: x.amin(-1),
    "std(0, correction=0)": lambda: x.std(0, correction=0),
    "norm(dim=0)": lambda: x.norm(dim=0),
    "logsumexp(0)": lambda: x.logsumexp(0),
    "softmax(0)": lambda: x.softmax(0),
    "log_softmax(-1)": lambda: x.log_softmax(-1),
    "cumsum(0)": lambda: x.cumsum(0),
    "flip(0)": lambda: x.flip(0),
    "transpose(0, -1)": lambda: x.transpose(0, -1),
    "gather(0, 0-dim)": lambda: x.gather(0, torch.tensor(0)),
    "gather(0, [0, 0])": lambda: x.gather(0, torch.tensor([0, 0])),
    "max(0)": lambda: x.max(0)[0],
    "min(-1, keepdim)": lambda: x.min(-1, keepdim=True)[0],
    "T": lambda: x.T,
}
for name, f in ops.items():
    try:
        y = f()
        (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
        print(name, tuple(y.shape), y.tolist(), type(y.grad_fn).__name__, g.item(), g.requires_grad)
    except Exception as e:
        print(name, type(e).__name__, e)

v = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
print(v.gather(1, torch.tensor([[1], [0]])).tolist(), torch.tensor([5.0, 6.0]).gather(0, torch.tensor(1)).tolist())
print(x.mT is x, x.mH is x)
for bad in ["x.sum((0, -1))", "v.sum((1, -1))", "v.flip((0, -2))", "torch.ones(3).mT", "torch.ones(2, 3, 4).H"]:
    try:
        eval(bad)
    except Exception as e:
        print(bad, type(e).__name__, e)
print(torch.ones(2, 3, 4).mT.shape, torch.ones(2, 3).H.shape)
