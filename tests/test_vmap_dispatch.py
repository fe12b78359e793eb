"""vmap's swap of the public entry points: the wrappers stay after a vmap until one is called
outside any vmap, which puts every original back (see ``batching.dispatch.install``)."""
import autograd_py as torch
from autograd_py.batching import dispatch
from autograd_py.func import grad, vmap

NAMES = ("add", "sin", "matmul", "randn", "stack")


def _originals():
    torch.zeros(1).add(1)  # a swapped method called outside any vmap: the originals come back
    assert not dispatch._installed[0]
    return {name: getattr(torch, name) for name in NAMES}, torch.Tensor.__dict__["add"]


def test_a_call_outside_vmap_puts_every_original_back():
    originals, tensor_add = _originals()
    x = torch.randn(3, 2)
    assert torch.allclose(vmap(torch.sin)(x), x.sin())
    assert dispatch._installed[0] and torch.sin is not originals["sin"]  # still the wrapper
    assert torch.stack([x, x]).shape == (2, 3, 2)  # plain code runs the original op...
    assert not dispatch._installed[0]  # ...after putting them all back
    assert {name: getattr(torch, name) for name in NAMES} == originals
    assert torch.Tensor.__dict__["add"] is tensor_add


def test_back_to_back_vmaps_swap_nothing():
    _, tensor_add = _originals()
    x = torch.randn(4, 3)
    w = torch.randn(3)
    per_sample = vmap(grad(lambda w, x: (x @ w).sin()), in_dims=(None, 0))
    first = per_sample(w, x)
    wrapper = torch.Tensor.__dict__["add"]
    assert wrapper is not tensor_add
    second = per_sample(w, x)
    assert torch.Tensor.__dict__["add"] is wrapper  # the same wrappers, never swapped out between
    assert torch.equal(first, second)
    assert torch.allclose(first, (x @ w).cos().unsqueeze(1) * x)


def test_random_ops_after_a_vmap_draw_as_usual():
    originals, _ = _originals()
    vmap(torch.sin)(torch.ones(2, 2))
    torch.manual_seed(0)
    a = torch.randn(3)  # the random wrapper outside a vmap: no randomness check, the original draw
    torch.manual_seed(0)
    assert torch.equal(a, originals["randn"](3))
    assert torch.randn is originals["randn"]


def test_an_entry_point_replaced_after_a_vmap_stays_replaced(monkeypatch):
    originals, _ = _originals()
    calls = []

    def traced(*args, **kwargs):
        calls.append(1)
        return originals["add"](*args, **kwargs)

    vmap(torch.sin)(torch.ones(2, 2))
    monkeypatch.setattr(torch, "add", traced)  # over the wrapper left by the vmap
    torch.sin(torch.ones(1))  # puts the originals back, but not over the replacement
    assert torch.add is traced and torch.sin is originals["sin"]
    x = torch.ones(2, 3)
    assert torch.equal(vmap(lambda v: torch.add(v, 1))(x), x + 1)  # the replacement, batched
    assert calls
    torch.sin(torch.ones(1))
    assert torch.add is traced
