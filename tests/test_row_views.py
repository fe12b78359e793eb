"""``x[i]`` of a tensor that is no view does _view_chain's steps inline (ops/indexing.py); its row
is the view _view_chain makes: same attributes, view functions, version counter, base and entry in
the base's list of views, with and without grad, across the list's sweeps, in no_grad and for views."""
import numpy as np
import pytest

import autograd_py as T
from autograd_py.ops import shape


def _general(base, i):
    """The row as _view_chain records it."""
    from autograd_py.ops.indexing import select
    out = T.Tensor.__new__(T.Tensor)
    out._data = base._data[i]
    out._version_counter = [0]
    return shape._view_chain(out, base, lambda x: select(x, 0, i), lambda a: a[i])


def _same_view(a, b, base):
    assert sorted(a.__dict__) == sorted(b.__dict__)
    for k, v in a.__dict__.items():
        if callable(v):
            continue
        w = b.__dict__[k]
        if isinstance(v, np.ndarray):
            assert v.__array_interface__ == w.__array_interface__
        else:
            assert v is w or v == w, k
    data = np.arange(float(base._data.size)).reshape(base._data.shape)
    np.testing.assert_array_equal(a._np_view_fn(data), b._np_view_fn(data))
    t = T.tensor(data)
    np.testing.assert_array_equal(a._view_fn(t).numpy(), b._view_fn(t).numpy())
    assert a._base is b._base and a._version_counter is b._version_counter
    assert a.requires_grad == b.requires_grad and type(a.grad_fn) is type(b.grad_fn)


@pytest.mark.parametrize("requires_grad", [False, True])
@pytest.mark.parametrize("mode", ["grad", "no_grad"])
def test_rows_are_the_views_view_chain_makes(requires_grad, mode):
    base = T.tensor(np.arange(12.0).reshape(4, 3), requires_grad=requires_grad)
    for n in range(130):  # past the list's sweeps at 64 and 128 views
        i = n % 4 - 2
        with T.set_grad_enabled(mode == "grad"):
            row = base[i]
            before = list(base.__dict__.get("_views", ()))
            want = _general(base, i)
        assert base._views[-1]() is want
        if requires_grad and mode == "grad":
            assert type(row.grad_fn).__name__ == "SelectBackward0"
            want._grad_fn, want._requires_grad = row._grad_fn, True
        else:
            assert row.grad_fn is None
        _same_view(row, want, base)
        assert any(r() is row for r in before)
        del row, want


def test_a_row_of_a_view_and_of_a_detached_tensor():
    base = T.tensor(np.arange(24.0).reshape(2, 4, 3), requires_grad=True)
    v = base[1]
    row = v[2]
    assert row._base is base and row._np_view_fn(base._data).tolist() == base._data[1, 2].tolist()
    d = base.detach()
    r = d[0]
    assert r._base is d and r._version_counter is base._version_counter
