"""Backward skips the check of a node's saved versions when nothing was written in place since the
node was made (``saved_tensor.last_write``); that holds only if every in-place write goes through
``bump_version``. These tests hold the source to that and check, writer by writer, that a saved
tensor written in place still raises PyTorch's error, on NumPy data and on Tensors."""
import pathlib
import re

import numpy as np
import pytest

import autograd_py as torch
from autograd_py import saved_tensor

SOURCE = pathlib.Path(torch.__file__).parent
# a version counter changed in place: ``t._version_counter[0] += 1``, ``saved.counter[0] -= 1``
BUMP = re.compile(r"(_version_counter|\.counter)\[0\]\s*[-+*]?=(?!=)")
# fresh tensors, whose counters nothing has saved yet, start at another version as PyTorch's do
FRESH_COUNTERS = {"ops/matmul.py", "random/factories.py", "engine_grads.py", "accumulate_grad.py"}


def test_every_version_bump_goes_through_bump_version():
    stray = []
    for path in SOURCE.rglob("*.py"):
        rel = path.relative_to(SOURCE).as_posix()
        if rel.startswith("playground/"):
            continue  # the page's statement counters, not tensors' versions
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if BUMP.search(line) and not (rel == "saved_tensor.py" and "+= times" in line):
                if rel in FRESH_COUNTERS and re.search(r"\[0\] = ", line):
                    continue
                stray.append(f"{rel}:{n}: {line.strip()}")
    assert stray == []


def _sgd_step(a):
    a.grad = torch.ones_like(a)
    torch.optim.SGD([a], lr=0.1).step()


class _Doubles(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        t.mul_(2.0)
        ctx.mark_dirty(t)
        return t

    @staticmethod
    def backward(ctx, g):
        return g * 2.0


def _batch_norm_stats(a):
    bn = torch.nn.BatchNorm1d(3)
    bn.running_mean = a  # the statistics the module updates in place are the saved tensor
    bn(torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.25, 4.0]]))


def _embedding_renorm(a):
    torch.nn.functional.embedding(torch.tensor([0]), a.view(1, 3), max_norm=0.5)


WRITERS = {
    "add_": lambda a: a.add_(1.0),
    "setitem": lambda a: a.__setitem__(0, 5.0),
    "view write": lambda a: a[1:].mul_(3.0),
    "increment_version": lambda a: torch.autograd.graph.increment_version(a),
    "optimizer step": _sgd_step,
    "mark_dirty": lambda a: _Doubles.apply(a),
    "batch norm statistics": _batch_norm_stats,
    "embedding max_norm": _embedding_renorm,
    "random out=": lambda a: torch.rand(3, out=a),
}


@pytest.mark.parametrize("create_graph", [False, True], ids=["numpy data", "tensors"])
@pytest.mark.parametrize("writer", list(WRITERS))
def test_a_saved_tensor_written_in_place_raises_in_backward(writer, create_graph):
    leaf = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
    a = torch.tensor([0.25, 0.5, 2.0])  # saved by the product for the leaf's gradient
    y = torch.exp(leaf * a)  # made before the write: its nodes must check their saved versions
    before = saved_tensor.last_write[0]
    with torch.no_grad() if writer in ("optimizer step", "mark_dirty") else _nothing():
        WRITERS[writer](a)
    assert saved_tensor.last_write[0] > before and saved_tensor.last_write[0] > y.grad_fn._seq
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        torch.autograd.grad(y.sum(), leaf, create_graph=create_graph)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_nodes_made_after_the_last_write_skip_the_check_and_get_the_same_gradients(monkeypatch):
    from autograd_py import node_saved, numpy_backward
    checked = []
    original = node_saved._check_saved
    monkeypatch.setattr(numpy_backward, "_check_saved", lambda n: checked.append(n) or original(n))
    x = torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([2.0, 3.0], dtype=torch.float64)
    w.add_(1.0)  # a write before the graph: nothing in it can have changed since
    y = torch.sin(x * w)
    # a saved version made to disagree with its counter: a check would raise PyTorch's error
    node_saved.saved_map(y.grad_fn)["self"].version -= 1
    g, = torch.autograd.grad(y.sum(), x)
    assert checked == []
    np.testing.assert_array_equal(g._data, np.cos(x._data * w._data) * w._data)
