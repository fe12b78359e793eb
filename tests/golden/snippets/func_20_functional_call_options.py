import torch
import torch.nn as nn
from torch.func import functional_call

class Foo(nn.Module):
    def __init__(self):
        super().__init__()
        self.foo = nn.Parameter(torch.tensor(1.))
        self.foo_tied = self.foo
        self.register_buffer("count", torch.tensor(0.))

    def forward(self, x):
        return x + self.foo + self.foo_tied + self.count

mod = Foo()
print(mod(torch.zeros(())))
a = {"foo": torch.zeros(())}
print(functional_call(mod, a, torch.zeros(())))
print(functional_call(mod, a, torch.zeros(()), tie_weights=False))
print(functional_call(mod, {"foo": torch.zeros(()), "foo_tied": torch.zeros(())}, torch.zeros(())))
print(functional_call(mod, ({"foo": torch.tensor(2.)}, {"count": torch.tensor(10.)}), (torch.ones(()),)))
print(functional_call(mod, {}, (), {"x": torch.tensor(5.)}))
print(mod.foo, mod.count)

for name, call in [
    ("tied different", lambda: functional_call(mod, {"foo": torch.zeros(()), "foo_tied": torch.ones(())}, torch.zeros(()))),
    ("repeated", lambda: functional_call(mod, ({"foo": torch.zeros(())}, {"foo": torch.ones(())}), torch.zeros(()))),
    ("not dicts", lambda: functional_call(mod, [1, 2], torch.zeros(()))),
    ("bad type", lambda: functional_call(mod, 3, torch.zeros(()))),
    ("strict missing", lambda: functional_call(mod, {"foo": torch.zeros(())}, torch.zeros(()), strict=True, tie_weights=False)),
    ("strict unexpected", lambda: functional_call(mod, {"foo": torch.zeros(()), "foo_tied": torch.zeros(()), "count": torch.zeros(()), "bar": torch.zeros(())}, torch.zeros(()), strict=True)),
]:
    try:
        call()
    except Exception as e:
        print(name, "->", type(e).__name__, e)

seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
params = {"0.weight": torch.eye(2), "0.bias": torch.tensor([0., -5.]),
          "2.weight": torch.tensor([[1., 1.]]), "2.bias": torch.tensor([0.5])}
print(functional_call(seq, params, torch.tensor([[1., 2.], [3., 10.]])))
