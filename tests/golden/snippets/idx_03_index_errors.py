import torch

x = torch.tensor([[2.0, 3.0]], requires_grad=True)
v = torch.tensor([2.0, 3.0])
z = torch.tensor(2.0, requires_grad=True)
reads = [
    (v, torch.tensor([0.0])),
    (z, torch.tensor([0.0])),
    (v, torch.tensor(1.0)),
    (x, torch.tensor([True, False, True, True, False])),
    (v, torch.tensor([True, False, True, True, False])),
    (z, torch.tensor([True, False, True, True, False])),
    (x, (slice(None), torch.tensor([True, False, True]))),
    (v, torch.tensor([[True, False]])),
    (z, 0), (z, 1), (z, -1), (z, (0,)), (z, slice(None)), (z, [0]), (z, []),
    (x, 9), (x, (0, 9)), (x, (None, 0, 9)),
    (v, [5]), (x, ([0], [5])), (x, (slice(None), [-3])),
    (v, [0, 1]), (v, [[0, 1], [1, 0]]),
    (x, (torch.tensor([True]), torch.tensor([1, 0, 1]))),
    (v, 1.0),
]
for t, key in reads:
    try:
        print(t[key])
    except Exception as e:
        print(type(e).__name__, e)

for key in [[], [True, False], [0.0], torch.tensor([1, 0], dtype=torch.int32), torch.tensor(True),
            torch.tensor(False), True, False, (0, True)]:
    y = v.requires_grad_()[key]
    print(y, type(y.grad_fn).__name__, [type(f).__name__ for f, _ in y.grad_fn.next_functions])
print(z[torch.tensor(False)].grad_fn.next_functions[0][0])
print(torch.tensor([2.0, 3.0])[torch.tensor([1, 0], dtype=torch.uint8)])
for f in [lambda: z.select(0, 0), lambda: v.select(0, 5)]:
    try:
        f()
    except IndexError as e:
        print(type(e).__name__, e)
