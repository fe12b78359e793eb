# nn.ParameterList / nn.ParameterDict as the PyTorch docs' MyModule uses them: registration, names,
# state_dict keys, reprs, list/dict operations, an optimizer step, and the errors they raise
import torch
from torch import nn
from collections import OrderedDict
torch.manual_seed(0)

class MyModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.params = nn.ParameterList([nn.Parameter(torch.randn(3, 3)) for i in range(3)])
        self.extra = nn.ParameterDict({"right": nn.Parameter(torch.ones(3, 1)), "left": torch.zeros(3, 1)})

    def forward(self, x, choice):
        for i, p in enumerate(self.params):
            x = self.params[i // 2].mm(x) + p.mm(x)
        return self.extra[choice] + x

m = MyModule()
print(m)
print([n for n, _ in m.named_parameters()])
print(list(m.state_dict().keys()))
out = m(torch.ones(3, 1), "left")
out.sum().backward()
print(m.params[0].grad, m.extra["left"].grad)
pl = nn.ParameterList()
pl.append(torch.ones(2))
pl.extend([torch.zeros(1, 2), 3])
print(pl, len(pl), type(pl[0]).__name__, pl[2], pl[-1], pl[1:])
pl[0] = torch.full((2,), 5.)
print(pl[0])
pd = nn.ParameterDict([("b", torch.ones(1)), ("a", torch.zeros(2, 2))])
pd["c"] = nn.Parameter(torch.ones(4))
print(pd, list(pd.keys()), "a" in pd, len(pd))
print(pd.pop("a"), list(pd))
pd.update(OrderedDict([("z", torch.ones(1)), ("y", torch.ones(1))]))
print(list(pd.keys()), list(pd.values())[0])
print(pd.get("nope"), pd.setdefault("w", torch.ones(3)))
print(sum(p.numel() for p in pd.parameters()))
opt = torch.optim.SGD(m.parameters(), lr=0.1)
opt.step()
print(m.params[1])
for bad in (lambda: pl(1), lambda: pl[5], lambda: pd[1], lambda: pl.extend(torch.ones(2)), lambda: pd.update(3)):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
