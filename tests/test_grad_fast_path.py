"""``autograd.grad(y, x[, v])`` with one output and one input takes a short path (autograd/api.py);
given the same values as sequences, grad takes the general path: both give the same gradients,
results and errors."""
import numpy as np
import pytest

import autograd_py as T
from autograd_py.autograd import api


def _both(make, **kwargs):
    """(fast, general): grad of the pair ``make()`` builds, as tensors, then as one-element lists."""
    results = []
    for wrap in (lambda t: t, lambda t: [t]):
        y, x, v = make()
        try:
            results.append(T.autograd.grad(wrap(y), wrap(x), None if v is None else wrap(v), **kwargs))
        except Exception as e:  # noqa: BLE001  (the error itself is compared)
            results.append((type(e), str(e)))
    return results


def _same(fast, general):
    if isinstance(general[0], type):
        assert fast == general
        return
    assert len(fast) == len(general) == 1
    f, g = fast[0], general[0]
    if g is None:
        assert f is None
        return
    assert f.dtype == g.dtype and f.shape == g.shape and f.requires_grad == g.requires_grad
    assert (f.grad_fn is None) == (g.grad_fn is None)
    np.testing.assert_array_equal(f.detach().numpy(), g.detach().numpy())


W = np.arange(12.0).reshape(4, 3) / 7


def _mv(v_dtype=np.float64, v_shape=(4,), scalar=False, view=False):
    def make():
        x = T.tensor([0.5, -1.0, 2.0], dtype=T.float64, requires_grad=True)
        y = T.tanh(T.tensor(W) @ x)
        if scalar:
            y = y.sum()
        if view:
            y = y[1:]
        v = None if v_shape is None else T.tensor(np.linspace(-1, 1, int(np.prod(v_shape))).reshape(v_shape),
                                                  dtype=T.float32 if v_dtype == np.float32 else T.float64)
        return y, x, v
    return make


@pytest.mark.parametrize("make, kwargs", [
    (_mv(), {}),
    (_mv(), {"retain_graph": True}),
    (_mv(), {"create_graph": True}),
    (_mv(v_dtype=np.float32), {}),  # the root gradient is cast to the output's dtype
    (_mv(v_shape=(3,)), {}),  # PyTorch's shape mismatch message
    (_mv(v_shape=None), {}),  # a non-scalar output without a gradient
    (_mv(v_shape=None, scalar=True), {}),
    (_mv(v_shape=None, scalar=True), {"create_graph": True}),
    (_mv(v_shape=(3,), view=True), {}),  # a view output: _check_roots's case
])
def test_one_output_one_input_matches_the_general_path(make, kwargs):
    _same(*_both(make, **kwargs))


def test_unused_input_and_allow_unused():
    def make():
        x = T.tensor([1.0, 2.0], requires_grad=True)
        z = T.tensor([3.0, 4.0], requires_grad=True)
        return (z * z).sum(), x, None
    for kwargs in ({}, {"allow_unused": False}, {"allow_unused": True}, {"materialize_grads": True}):
        _same(*_both(make, **kwargs))


def test_a_gradient_with_history_is_detached_unless_create_graph():
    def make():
        a = T.tensor([1.0, 2.0], requires_grad=True)
        x = T.tensor([3.0, 4.0], requires_grad=True)
        return x + 1, x, a * 2  # AddBackward0 hands v itself to x
    for kwargs in ({}, {"create_graph": True}):
        fast, general = _both(make, **kwargs)
        _same(fast, general)
        assert (fast[0].grad_fn is not None) == bool(kwargs)


def test_a_freed_graph_and_inputs_without_grad_raise_the_same():
    def freed():
        x = T.tensor([0.5, 2.0], requires_grad=True)
        y = (x.sin() * x).sum()
        T.autograd.grad(y, x)
        return y, x, None

    def no_grad_input():
        x = T.tensor([0.5, 2.0], requires_grad=True)
        return (x * x).sum(), T.tensor([1.0, 2.0]), None

    def no_grad_output():
        return T.tensor([1.0, 2.0]).sum(), T.tensor([0.5, 2.0], requires_grad=True), None

    for make in (freed, no_grad_input, no_grad_output):
        fast, general = _both(make)
        assert isinstance(general[0], type)
        _same(fast, general)


def test_the_short_path_runs_without_make_grads_for_a_matching_gradient(monkeypatch):
    calls = []
    monkeypatch.setattr(api, "_make_grads", lambda *a, _f=api._make_grads: calls.append(1) or _f(*a))
    y, x, v = _mv()()
    T.autograd.grad(y, x, v, retain_graph=True)
    assert calls == []  # the matching gradient went straight to the engine
    T.autograd.grad([y], [x], [v])
    assert calls == [1]
