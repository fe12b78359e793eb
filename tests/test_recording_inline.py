"""The hot ops make their nodes and saved tensors inline (ops/unary.py, ops/plain_binary.py) instead
of calling ``Node()`` and ``SavedTensor(...)``: what they make must be what those calls make.

Each check builds the same thing both ways and compares every slot and instance attribute, so a
field added to ``Node.__init__`` or ``SavedTensor.__init__`` that the inline copies miss fails here.
"""
import numpy as np
import pytest

import autograd_py as T
from autograd_py import grad_mode, saved_tensor
from autograd_py.node import Node
from autograd_py.ops import unary
from autograd_py.saved_tensor import SavedTensor

_MISSING = object()


def _slots(cls):
    names = []
    for klass in cls.__mro__:
        names.extend(n for n in klass.__dict__.get("__slots__", ()) if n not in ("__weakref__", "__dict__"))
    return names


def _state(obj):
    """Every slot's value (or _MISSING) and the instance dict, identities kept for objects."""
    values = {n: getattr(obj, n, _MISSING) for n in _slots(type(obj))}
    return values, dict(getattr(obj, "__dict__", {}))


def _same(a, b):
    sa, sb = _state(a), _state(b)
    assert sa[0].keys() == sb[0].keys()
    for name in sa[0]:
        x, y = sa[0][name], sb[0][name]
        assert x is y or (type(x) is type(y) and x == y), name
    assert sa[1] == sb[1]


def test_node_init_sets_what_the_inline_copies_set():
    """unary.op and plain_binary.recorded set ``_seq`` and ``_vars`` themselves (Node.__init__'s body)."""
    node = object.__new__(unary.SinBackward0)
    Node.__init__(node)
    values, extra = _state(node)
    assert {n for n, v in values.items() if v is not _MISSING} == {"_seq", "_vars"}
    assert node._vars is None and extra == {}
    for cls in (unary.SinBackward0, unary.TanhBackward0, unary.ExpBackward0, unary.NegBackward0):
        assert cls.__init__ is Node.__init__


def _ops():
    return {"sin": (T.sin, "self"), "cos": (T.cos, "self"), "log": (T.log, "self"), "tanh": (T.tanh, "result"),
            "exp": (T.exp, "result"), "sqrt": (T.sqrt, "result"), "neg": (T.neg, None), "abs": (T.abs, "self")}


@pytest.mark.parametrize("dtype", [T.float64, T.float32])
@pytest.mark.parametrize("shape", [(), (3,), (2, 2)])
@pytest.mark.parametrize("name", sorted(_ops()))
def test_unary_saves_what_saved_tensor_saves(name, shape, dtype):
    op, saves = _ops()[name]
    x = T.tensor(np.linspace(0.5, 1.5, int(np.prod(shape))).reshape(shape), dtype=dtype, requires_grad=True)
    h = x * 1.0
    for inp in (x, h):  # a leaf (its accumulator's edge) and a tensor with history
        before = inp.grad_fn._seq if inp.grad_fn is not None else -1
        y = op(inp)
        node = y.grad_fn
        assert type(node).__init__ is Node.__init__
        assert node._seq > before and node.next_functions == ((inp.grad_fn or inp._accumulator, 0),)
        if saves is None:
            assert node._vars is None
            continue
        assert list(node._vars) == [saves]
        made = node._vars[saves]
        assert type(made) is SavedTensor
        _same(made, SavedTensor(inp) if saves == "self" else SavedTensor(y, True))
        if saves == "self":
            _same(made, saved_tensor.saved_input(inp))


def test_saved_helpers_refuse_inference_tensors_as_saved_tensor_does():
    with T.inference_mode():
        x = T.tensor([1.0, 2.0], requires_grad=True)
    for make in (lambda: SavedTensor(x), lambda: saved_tensor.saved_input(x)):
        with pytest.raises(RuntimeError) as info:
            make()
        assert str(info.value) == grad_mode.INFERENCE_SAVED
    for op in (T.sin, lambda t: T.ones(2, dtype=T.float32, requires_grad=True) * t):
        with pytest.raises(RuntimeError) as info:
            op(x)
        assert str(info.value) == grad_mode.INFERENCE_SAVED
    # these save no inference tensor: the result, a number
    assert T.exp(x).grad_fn.name() == "ExpBackward0" and (x * 2.0).grad_fn.name() == "MulBackward0"


def test_mul_saves_what_saved_tensor_saves():
    a = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
    b = T.sin(a)
    y = a * b
    assert list(y.grad_fn._vars) == ["other", "self"]
    _same(y.grad_fn._vars["other"], SavedTensor(b))
    _same(y.grad_fn._vars["self"], SavedTensor(a))
    assert (a + b).grad_fn.alpha == 1 and (a + b).grad_fn._vars is None
    assert (a * 2.0).grad_fn._vars == {"other": 2.0}


_SPECIAL = [0.0, -0.0, 1.0, -1.5, 1 / 3, 1e308, -1e308, 5e-324, -5e-324, 2.2250738585072014e-308, float("inf"),
            float("-inf"), float("nan"), -float("nan"), 0.1, 3.0000000000000004]


def _bits(t):
    return t.detach().numpy().tobytes()


@pytest.mark.parametrize("dtype", [T.float64, T.float32])
@pytest.mark.parametrize("op", ["add", "sub", "mul"])
def test_plain_arithmetic_is_numpys_bit_for_bit(op, dtype):
    """plain_binary computes 0-dim float64 arithmetic on Python floats and hands a float64 ufunc its
    number as a cached 0-dim array: both must give the bits of the general path, which uses NumPy
    scalars at 0 dims and the ufunc with a Python float otherwise (NaN payloads and zeros' signs too)."""
    ufunc = {"add": np.add, "sub": np.subtract, "mul": np.multiply}[op]
    fn = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b}[op]
    npdt = np.float64 if dtype is T.float64 else np.float32
    vec = np.array(_SPECIAL, dtype=npdt)
    for u in _SPECIAL:
        for v in _SPECIAL:
            x = T.tensor(u, dtype=dtype, requires_grad=True)
            scalar = np.array(u, npdt)[()]
            assert _bits(fn(x, v)) == np.asarray(fn(scalar, v)).tobytes(), (u, v)
            w = T.tensor(v, dtype=dtype)
            assert _bits(fn(x, w)) == np.asarray(fn(scalar, np.array(v, npdt)[()])).tobytes(), (u, v)
        xs = T.tensor(vec, requires_grad=True)
        for v in (u, float(repr(u)) if u == u else u):  # the same value as another float object
            assert _bits(fn(xs, v)) == ufunc(vec, v).tobytes(), u
        assert _bits(fn(xs, T.tensor(vec[::-1].copy()))) == ufunc(vec, vec[::-1]).tobytes()


def test_cached_numbers_stay_apart():
    """0.0 and -0.0 (equal as dict keys) and many numbers in turn each multiply as themselves."""
    x = T.tensor([1.0, -2.0], dtype=T.float64, requires_grad=True)
    for _ in range(2):
        assert _bits(x * 0.0) == np.multiply([1.0, -2.0], 0.0).tobytes()
        assert _bits(x * -0.0) == np.multiply([1.0, -2.0], -0.0).tobytes()
    for i in range(300):
        f = i * 0.37 - 50.0
        assert (x + f).detach().numpy().tolist() == [1.0 + f, -2.0 + f]
