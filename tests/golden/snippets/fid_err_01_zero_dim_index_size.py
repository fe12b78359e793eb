import torch


def attempt(name, f):
    try:
        print(name, f())
    except Exception as e:
        print(name, type(e).__name__, e)


# Indexing a 0-dim tensor names the size PyTorch still keeps in its first size slot: 1 for
# max/min(dim)'s outputs and tensors squeezed in place (made with a size-1 dim), else 0.
v = torch.arange(4.0).max(dim=0)
attempt("max values", lambda: v.values[9])
attempt("max indices", lambda: v.indices[-3])
attempt("min", lambda: torch.ones(1).min(dim=-1)[0][2])
attempt("min of 0-dim", lambda: torch.tensor(2.0).min(dim=0)[0][9])
attempt("detached", lambda: v.values.detach()[9])
attempt("data", lambda: v.values.data[9])
attempt("clone", lambda: v.values.clone()[9])
attempt("sum", lambda: torch.arange(4.0).sum(0)[9])
attempt("index 0", lambda: v.values[0])
s = torch.ones(1, 1)
s.squeeze_()
attempt("squeeze_", lambda: s[5])
t = torch.tensor(3.0)
t.unsqueeze_(0)
t.squeeze_(0)
attempt("unsqueeze_ squeeze_", lambda: t[5])


def assign():
    v.values[9] = 1.0


attempt("setitem", assign)
