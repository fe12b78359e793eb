"""``torch.vmap``: every op-table row, vectorised, against the same op run one example at a time.

A row passes when ``vmap(op)`` over a batch of three examples equals the stack of the op's
results on each example, and no op fell back to the per-example loop (which warns, as
PyTorch's BatchedFallback does). Transforms, messages and the per-sample-gradients tutorial are
compared with PyTorch itself in the golden snippets ``vmap_*``.
"""
import warnings
import zlib

import numpy as np
import pytest

import autograd_py as T
from autograd_py.batching import BatchedTensor, vmap
from op_table import OPS, shape_id

CASES = [pytest.param(row, shapes, id=f"{row.name}-{shape_id(shapes)}") for row in OPS for _, shapes in row.samples()]
BATCH = 3


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


# Rows whose op has no batching rule here yet (PyTorch has one): vmap runs them once per example,
# with PyTorch's "performance drop" warning, and must still give the stacked results.
PER_EXAMPLE = {"prelu", "prelu_one", "batch_norm_train", "batch_norm_eval", "batch_norm_no_affine", "layer_norm",
               "layer_norm_2d", "group_norm", "rms_norm", "meshgrid_ij", "meshgrid_xy", "instance_norm"}


@pytest.mark.parametrize("row, shapes", CASES)
def test_vmap_of_every_op_is_one_batched_call(row, shapes):
    rng = np.random.default_rng(zlib.crc32(f"vmap-{row.name}-{shape_id(shapes)}".encode()))
    examples = [row.make_inputs(rng, shapes) for _ in range(BATCH)]
    batched = [T.tensor(np.stack([e[i] for e in examples])) for i in range(len(examples[0]))]

    def op(*xs):
        return row.op(T, *xs)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = _as_tuple(vmap(op)(*batched))
    fallbacks = [str(w.message) for w in caught if "performance drop" in str(w.message)]
    assert bool(fallbacks) == (row.name in PER_EXAMPLE), fallbacks
    singles = [_as_tuple(op(*[T.tensor(a) for a in e])) for e in examples]
    assert len(out) == len(singles[0])
    for k, o in enumerate(out):
        expected = np.stack([s[k].numpy() for s in singles])
        assert not isinstance(o, BatchedTensor)
        assert tuple(o.shape) == expected.shape and o.dtype == singles[0][k].dtype
        np.testing.assert_allclose(o.numpy(), expected, rtol=1e-12, atol=1e-12, equal_nan=True)


def test_an_op_without_a_rule_runs_per_example_with_pytorchs_warning():
    x = T.tensor([[3., 1., 2.], [0., 5., 4.]])
    with pytest.warns(UserWarning, match="performance drop because we have not yet implemented the batching rule "
                                         "for aten::index_select"):
        out = vmap(lambda t, i: t.index_select(0, i))(x, T.tensor([[2], [1]]))
    assert out.tolist() == [[2.], [5.]]


def test_vmap_leaves_the_ops_as_they_were():
    before = (T.Tensor.__add__, T.sin, T.Tensor.sum)
    vmap(lambda t: (t + 1).sin().sum())(T.ones(2, 3))
    with pytest.raises(RuntimeError):
        vmap(lambda t: t.item())(T.ones(2))
    assert (T.Tensor.__add__, T.sin, T.Tensor.sum) == before


def test_randomness_modes_draw_per_example_or_once():
    x = T.zeros(4, 3)
    T.manual_seed(0)
    different = vmap(lambda t: t + T.rand(3), randomness="different")(x)
    assert len({tuple(r) for r in different.tolist()}) == 4
    same = vmap(lambda t: t + T.rand(3), randomness="same")(x)
    assert len({tuple(r) for r in same.tolist()}) == 1
    masks = vmap(lambda t: T.nn.functional.dropout(t + 1, 0.5), randomness="different")(T.zeros(64, 8))
    assert 0 < (masks == 0).float().mean().item() < 1


def test_chunk_size_gives_the_same_result():
    x = T.arange(20.).reshape(10, 2)
    f = vmap(lambda t: (t.softmax(0) * t).sum(), chunk_size=3)
    np.testing.assert_allclose(f(x).numpy(), vmap(lambda t: (t.softmax(0) * t).sum())(x).numpy())
