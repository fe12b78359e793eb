import torch

e = torch.tensor([], requires_grad=True)
pieces = torch.chunk(e, 3)  # an empty dim still gives `chunks` pieces
print([p.shape for p in pieces], pieces[0].grad_fn)
print(torch.autograd.grad(pieces[1].sum(), e))
print([p.shape for p in torch.ones(3, 0).chunk(2, 1)], [p.shape for p in torch.ones(0).split(0)])
for f in [lambda: torch.chunk(torch.tensor(1.0), 2), lambda: torch.chunk(torch.ones(3), 0),
          lambda: torch.ones(3).split(0), lambda: torch.ones(3).split(-1), lambda: torch.tensor(1.0).split(1)]:
    try:
        print(f())
    except RuntimeError as err:
        print(type(err).__name__, err)
