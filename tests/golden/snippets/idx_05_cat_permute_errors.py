import torch

e = torch.tensor([], requires_grad=True)
w = torch.tensor([[-2.0, -2.0, 2.0], [0.0, -3.0, -1.0]], requires_grad=True)
y = torch.cat([e, w, e], dim=1)  # empty 1-D tensors are skipped (PyTorch's legacy rule)
print(y, y.grad_fn)
ge, gw = torch.autograd.grad(y.sum(), [e, w])
print(ge, gw)
print(torch.cat([torch.tensor([]), torch.tensor([])], dim=1))
print(torch.cat([torch.ones(2, 3), torch.ones(4, 3, dtype=torch.float64)], dim=-2).dtype)

attempts = [
    lambda: torch.cat([]),
    lambda: torch.cat([torch.tensor([]), torch.tensor(1.0)]),
    lambda: torch.cat([torch.tensor(1.0), torch.ones(4, 5)]),
    lambda: torch.cat([torch.ones(3), torch.ones(4, 5)]),
    lambda: torch.cat([torch.ones(2, 3), torch.ones(4, 5)]),
    lambda: torch.cat([torch.ones(2, 3), torch.ones(4, 5)], dim=2),
    lambda: torch.cat([torch.tensor([]), torch.ones(2, 3)], dim=-3),
    lambda: torch.stack([torch.ones(2, 3), torch.ones(3, 2)]),
    lambda: torch.stack([]),
    lambda: torch.ones(2, 3).permute(0, 0),
    lambda: torch.ones(2, 3).permute(-1, 1),
    lambda: torch.ones(2, 3).permute(0, 1, 2),
    lambda: torch.ones(2, 3).permute(0),
    lambda: torch.ones(2, 3).permute(5, 0),
    lambda: torch.ones(2, 3, 4).permute(0, 0, 1),
    lambda: torch.tensor(1.0).permute(0),
    lambda: torch.tensor(1.0).permute(),
]
for attempt in attempts:
    try:
        print(attempt())
    except Exception as err:
        print(type(err).__name__, err)
