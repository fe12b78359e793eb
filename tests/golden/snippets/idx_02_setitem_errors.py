import torch

x = torch.zeros(2, 3)
attempts = [
    ([0], torch.ones(3, dtype=torch.float64)),
    (0, [1.0, 2.0, 3.0]),
    (0, "a"),
    ([0], torch.ones(2)),
    (0, torch.ones(2)),
    (0, torch.ones(2, 3)),
    ([9], 1.0),
    (9, 1.0),
    ((0, 9), 1.0),
    (torch.tensor(1.0), 1.0),
    ((0, torch.tensor([True, False])), 1.0),
]
for key, value in attempts:
    try:
        x[key] = value
        print("ok", x.tolist())
    except Exception as e:
        print(type(e).__name__, e)

n = torch.zeros(2, dtype=torch.long)
n[0] = 2.7
n[1] = True
print(n.tolist())

z = torch.tensor(1.0)
for key in [0, 1, slice(None), [0], Ellipsis, None]:
    try:
        z[key] = 2.0
        print("ok", z.tolist())
    except Exception as e:
        print(type(e).__name__, e)
