"""Learners' programs the page-side benches run (``timeline_cost.py`` in CPython, ``page_run.py``
in Chromium): the code a learner pastes into the editor, as strings.

- ``W2``: 20 training steps of bench W2's 64x784 -> 128 -> 10 tanh MLP with plain tensors
  (log_softmax, NLL by indexing, SGD by hand);
- ``W2-nn``: the same with ``nn.Sequential``, ``F.cross_entropy`` and ``optim.SGD``;
- ``loop``: a 10,000-iteration loop of scalar Python (one tensor op at the end), where the timeline
  recorder's cost per statement shows alone;
- ``micrograd``: 20 steps of bench W4's 3 -> 4 -> 4 -> 1 MLP on 0-dim tensors with SGD by hand (some
  12,800 statements, 350 nodes a step), what scalar tutorials run.

Not in ``PROGRAMS``, the graphs the views' layout is checked on (``tests/test_graph_rank.py``,
``test_graph_order.py``, ``e2e/test_views.py``): ``MICROGRAD_STEP``, one step of ``micrograd``
(348 nodes, 518 edges), and ``FORWARD_LESSON``, a forward-mode lesson's dual numbers.
"""

W2 = """import torch
torch.manual_seed(0)
X = torch.randn(64, 784)
y = torch.randint(0, 10, (64,))
W1 = (torch.randn(784, 128) / 28).requires_grad_()
b1 = torch.zeros(128, requires_grad=True)
W2 = (torch.randn(128, 10) / 11.3).requires_grad_()
b2 = torch.zeros(10, requires_grad=True)
rows = torch.arange(64)
lr = 0.1
for step in range(20):
    h = torch.tanh(X @ W1 + b1)
    logp = torch.log_softmax(h @ W2 + b2, dim=1)
    loss = -logp[rows, y].mean()
    for p in (W1, b1, W2, b2):
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in (W1, b1, W2, b2):
            p -= lr * p.grad
print(loss.item())
"""

W2_NN = """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(64, 784)
y = torch.randint(0, 10, (64,))
model = nn.Sequential(nn.Linear(784, 128), nn.Tanh(), nn.Linear(128, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(20):
    opt.zero_grad()
    loss = F.cross_entropy(model(X), y)
    loss.backward()
    opt.step()
print(loss.item())
"""

LOOP = """import torch
w = torch.ones(2, requires_grad=True)
t = 0
for i in range(10000):
    t = t + i
loss = (w * t).sum()
loss.backward()
print(w.grad)
"""

MICROGRAD = """import torch
torch.manual_seed(0)
sizes = [3, 4, 4, 1]
layers = [[([torch.randn(()).double().requires_grad_() for _ in range(n_in)],
            torch.zeros((), dtype=torch.float64, requires_grad=True))
           for _ in range(n_out)] for n_in, n_out in zip(sizes, sizes[1:])]
params = [p for layer in layers for w, b in layer for p in (*w, b)]
xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
ys = [1.0, -1.0, -1.0, 1.0]
for step in range(20):
    total = None
    for x, target in zip(xs, ys):
        act = x
        for i, layer in enumerate(layers):
            nxt = []
            for w, b in layer:
                s = b
                for wi, xi in zip(w, act):
                    s = s + wi * xi
                nxt.append(s.tanh() if i < len(layers) - 1 else s)
            act = nxt
        term = (act[0] - target) ** 2
        total = term if total is None else total + term
    loss = total / len(xs)
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.05 * p.grad
print(loss.item())
"""

PROGRAMS = {"W2": W2, "W2-nn": W2_NN, "loop": LOOP, "micrograd": MICROGRAD}

MICROGRAD_STEP = MICROGRAD.replace("for step in range(20):", "for step in range(1):")
assert MICROGRAD_STEP != MICROGRAD

FORWARD_LESSON = """import torch
import torch.autograd.forward_ad as fwAD
x = torch.tensor([0.5, 1.0, 2.0])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(3))
    h = d.sin() * d + d.exp()
    y = (h.tanh() * h).sum() + h.mean() * d.sum()
    jvp = fwAD.unpack_dual(y).tangent
"""
