"""NumPy's keyword names (``axis``, ``keepdims``, ``x``/``a``/``x1``) on ops, as PyTorch's argument parser takes them."""
import numpy as np
import pytest

import autograd_py as torch
from autograd_py.signatures import numpy_names

X = np.array([[1., 5., 2.], [4., 3., 6.]], dtype=np.float32)

# (call with NumPy names, the same call with PyTorch's names)
PAIRS = {
    "sum": (lambda t: t.sum(1, keepdims=True), lambda t: t.sum(1, keepdim=True)),
    "torch.sum": (lambda t: torch.sum(t, axis=0, keepdims=True), lambda t: torch.sum(t, dim=0, keepdim=True)),
    "mean": (lambda t: t.mean(axis=0), lambda t: t.mean(dim=0)),
    "prod": (lambda t: t.prod(axis=1, keepdims=True), lambda t: t.prod(dim=1, keepdim=True)),
    "max": (lambda t: t.max(axis=1, keepdims=True).values, lambda t: t.max(dim=1, keepdim=True).values),
    "min": (lambda t: torch.min(t, axis=0).values, lambda t: torch.min(t, dim=0).values),
    "amax": (lambda t: t.amax(axis=1, keepdims=True), lambda t: t.amax(dim=1, keepdim=True)),
    "amin": (lambda t: t.amin(axis=0), lambda t: t.amin(dim=0)),
    "std": (lambda t: t.std(axis=0, keepdims=True), lambda t: t.std(dim=0, keepdim=True)),
    "var": (lambda t: t.var(axis=1), lambda t: t.var(dim=1)),
    "logsumexp": (lambda t: t.logsumexp(axis=1, keepdims=True), lambda t: t.logsumexp(dim=1, keepdim=True)),
    "softmax": (lambda t: t.softmax(axis=0), lambda t: t.softmax(dim=0)),
    "log_softmax": (lambda t: torch.log_softmax(t, axis=1), lambda t: torch.log_softmax(t, dim=1)),
    "cumsum": (lambda t: t.cumsum(axis=1), lambda t: t.cumsum(dim=1)),
    "cat": (lambda t: torch.cat([t, t], axis=1), lambda t: torch.cat([t, t], dim=1)),
    "stack": (lambda t: torch.stack([t, t], axis=2), lambda t: torch.stack([t, t], dim=2)),
    "unsqueeze": (lambda t: t.unsqueeze(axis=0), lambda t: t.unsqueeze(dim=0)),
    "select": (lambda t: t.select(axis=1, index=2), lambda t: t.select(dim=1, index=2)),
    "index_select": (lambda t: t.index_select(axis=1, index=torch.tensor([2, 0])),
                     lambda t: t.index_select(dim=1, index=torch.tensor([2, 0]))),
    "index_add": (lambda t: t.index_add(axis=1, index=torch.tensor([0, 0, 2]), source=t),
                  lambda t: t.index_add(dim=1, index=torch.tensor([0, 0, 2]), source=t)),
    "sort": (lambda t: t.sort(axis=0).values, lambda t: t.sort(dim=0).values),
    "topk": (lambda t: t.topk(2, axis=1).values, lambda t: t.topk(2, dim=1).values),
    "input alias a": (lambda t: torch.sum(a=t), lambda t: torch.sum(input=t)),
    "input alias x": (lambda t: torch.mean(x=t, axis=1), lambda t: torch.mean(input=t, dim=1)),
}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_numpy_names_give_the_same_values_and_gradients(name):
    numpy_call, torch_call = PAIRS[name]
    results = []
    for call in (numpy_call, torch_call):
        x = torch.tensor(X, requires_grad=True)
        out = call(x)
        out.backward(torch.ones_like(out) * torch.arange(out.numel()).reshape(out.shape))
        results.append((out.detach().numpy(), type(out.grad_fn).__name__, x.grad.numpy()))
    (a, fn_a, grad_a), (b, fn_b, grad_b) = results
    np.testing.assert_array_equal(a, b)
    assert fn_a == fn_b
    np.testing.assert_array_equal(grad_a, grad_b)


def test_argmax_and_boolean_reductions_take_numpy_names():
    t = torch.tensor(X)
    assert t.argmax(axis=1).tolist() == [1, 2]
    assert t.argmin(axis=0, keepdims=True).tolist() == [[0, 1, 0]]
    assert (t > 2).all(axis=1).tolist() == [False, True]
    assert (t > 2).any(axis=0, keepdims=True).tolist() == [[True, True, True]]


@pytest.mark.parametrize("call, message", [
    (lambda t: t.sum(dim=0, axis=1), "sum() got an unexpected keyword argument 'axis'"),
    (lambda t: t.sum(0, keepdim=True, keepdims=True), "sum() got an unexpected keyword argument 'keepdims'"),
    (lambda t: torch.nn.functional.softmax(t, axis=0), "softmax() got an unexpected keyword argument 'axis'"),
])
def test_both_names_or_a_python_level_function_is_a_type_error(call, message):
    with pytest.raises(TypeError) as info:
        call(torch.tensor(X))
    assert str(info.value) == message


def test_only_aliases_of_existing_parameters_are_accepted():
    @numpy_names
    def f(input, dim=None):
        return input, dim

    assert f(1, axis=2) == (1, 2)
    assert f(x=3) == (3, None)
    with pytest.raises(TypeError, match="unexpected keyword argument 'keepdims'"):
        f(1, keepdims=True)
    assert f.__name__ == "f" and f.__wrapped__(1, 2) == (1, 2)
