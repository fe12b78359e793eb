"""The engine's ready queue (a heap plus the slot for the node that runs next) against a plain
model of PyTorch's: nodes become ready when their last incoming edge delivers, and the ready node
with the highest sequence number runs first, leaves' accumulators (the maximum) before all, ties
in the order they became ready."""
import random

import autograd_py as torch
from autograd_py import engine

from ready_queue_model import ready_order


def _random_loss(rnd):
    leaves = [torch.tensor(rnd.uniform(-1, 1), requires_grad=True) for _ in range(rnd.randint(1, 5))]
    vals = list(leaves)
    for _ in range(rnd.randint(2, 40)):
        k, a, b = rnd.random(), rnd.choice(vals), rnd.choice(vals)
        vals.append(a * b if k < .3 else a + b if k < .6 else a.tanh() if k < .8 else a.sin() - b)
    made = vals[len(leaves):]
    return sum(rnd.sample(made, min(3, len(made))))


def test_nodes_run_in_the_heap_order_of_pytorchs_ready_queue_on_random_graphs():
    for trial in range(200):
        loss = _random_loss(random.Random(trial))
        expected = [id(n) for n in ready_order([(loss.grad_fn, 0)])]
        ran = []
        old = engine.set_listener(
            lambda ev: ran.append(ev["node"]) if ev["event"] in ("node", "accumulate") else None)
        try:
            loss.backward()
        finally:
            engine.set_listener(old)
        assert ran == expected, trial
