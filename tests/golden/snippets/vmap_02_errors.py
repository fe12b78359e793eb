import torch
from torch.func import vmap

x = torch.arange(6.).reshape(2, 3)


def attempt(f, *args, **kwargs):
    try:
        print(f(*args, **kwargs))
    except Exception as e:
        print(type(e).__name__, e)


attempt(vmap(lambda t: t.item()), x)
attempt(vmap(lambda t: torch.randn(3)), x)
attempt(vmap(lambda t, u: t + u), x, torch.ones(3, 3))
attempt(vmap(lambda t: t, in_dims=2), x)
attempt(vmap(lambda t: t, out_dims=None), x)
attempt(vmap(lambda t: 3.0), x)
attempt(vmap(lambda t: t.sum()), 5)
attempt(vmap(lambda t: t.shape), x)
attempt(vmap(lambda t: t.sum(), out_dims=1), x)
attempt(vmap(lambda t: bool(t.sum() > 0)), x)
attempt(vmap(lambda t: torch.ones(3).add_(t)), x)
attempt(vmap(lambda: 1))
attempt(vmap, lambda t: t, chunk_size=0)
attempt(vmap, lambda t: t, randomness="bad")
attempt(vmap(lambda t: t.add_(1)), x.clone())
attempt(vmap(lambda t: torch.ones(2)), x)
