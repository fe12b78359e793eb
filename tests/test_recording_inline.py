"""The hot ops make their nodes and saved tensors inline (ops/unary.py, plain_binary.py, powers.py)
instead of calling ``Node()`` and ``SavedTensor(...)``: what they make must be what those calls make.

Each check builds the same thing both ways and compares every slot and instance attribute, so a
field added to ``Node.__init__`` or ``SavedTensor.__init__`` that the inline copies miss fails here.
The fast paths of pow, mul_scalar and sum are then compared with their general paths: result
bytes and strides, graph (edges, input metadata, saved values), first and second gradients, and
which path ran. (0-dim arithmetic and the cached float operands: bit for bit against NumPy.)
"""
import numpy as np
import pytest

import autograd_py as T
from autograd_py import grad_mode, saved_tensor
from autograd_py.node import Node
from autograd_py.node_saved import saved_map
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
    """unary.op, plain_binary's ops and powers._pow_plain set ``_seq`` and ``_vars`` themselves
    (Node.__init__'s body)."""
    node = object.__new__(unary.SinBackward0)
    Node.__init__(node)
    values, extra = _state(node)
    assert {n for n, v in values.items() if v is not _MISSING} == {"_seq", "_vars"}
    assert node._vars is None and extra == {}
    from autograd_py.ops import pointwise, powers
    for cls in (unary.SinBackward0, unary.TanhBackward0, unary.ExpBackward0, unary.NegBackward0,
                pointwise.AddBackward0, pointwise.SubBackward0, pointwise.MulBackward0, pointwise.MulBackward1,
                powers.PowBackward0):
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
        made = node._vars  # the one saved tensor, named, without a dict (node_saved.saved_map)
        assert type(made) is SavedTensor and made.name == saves
        expected = SavedTensor(inp) if saves == "self" else SavedTensor(y, True)
        expected.name = saves
        _same(made, expected)
        if saves == "self":
            expected = saved_tensor.saved_input(inp)
            expected.name = saves
            _same(made, expected)
        assert saved_map(node) == {saves: made} and node._vars == {saves: made}


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


def test_exp_takes_its_kernel_by_dtype():
    """exp is one op for every dtype: float32 rounds NumPy's float64 exp once (_fp.exp, PyTorch's
    digits), other dtypes take NumPy's own, on Tensors and on a formula's NumPy data alike."""
    values = np.linspace(-20, 20, 401)
    for dtype in (np.float32, np.float64, np.float16):
        d = values.astype(dtype)
        want = np.exp(d.astype(np.float64)).astype(np.float32) if dtype is np.float32 else np.exp(d)
        for got in (T.exp(T.tensor(d)).numpy(), unary.exp(d)):
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    assert T.exp(T.tensor([0, 1])).dtype == T.float32  # an integer tensor: the default float dtype's
    assert T.exp(T.tensor([1.0], requires_grad=True)).grad_fn.name() == "ExpBackward0"


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


# ------------------------------------------------------------------ pow, mul_scalar, sum fast paths
def _full_graph(t):
    """Every node from ``t.grad_fn``: name, edges, input metadata, saved and kept values."""
    out, todo, seen = [], [t.grad_fn], set()
    while todo:
        fn = todo.pop(0)
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        row = [fn.name(), [(None if f is None else f.name(), nr) for f, nr in fn.next_functions],
               getattr(fn, "_input_meta", None)]
        for attr in ("_saved_self", "_saved_other", "_saved_exponent", "_saved_self_sym_sizes", "_saved_result"):
            value = getattr(fn, attr, None)
            row.append(value.detach().numpy().tobytes() if isinstance(value, T.Tensor) else value)
        if fn._vars:
            row.append(sorted(fn._vars))
        out.append(row)
        todo.extend(f for f, _ in fn.next_functions)
    return out


def _inputs(kind):
    if kind == "0d leaf":
        return T.tensor(0.7, dtype=T.float64, requires_grad=True)
    if kind == "1d history":
        return T.tensor([0.5, -1.5, 2.0], dtype=T.float64, requires_grad=True) * 1.5
    if kind == "2d history":
        return T.sin(T.tensor([[0.5, -1.5], [2.0, 0.25]], dtype=T.float64, requires_grad=True))
    if kind == "1d leaf":
        return T.tensor([0.5, 1.5, 3.0], dtype=T.float64, requires_grad=True)
    if kind == "constant":
        return T.tensor([0.5, 1.5, 3.0], dtype=T.float64)
    if kind == "expanded (general)":
        return T.tensor([0.5], dtype=T.float64, requires_grad=True).expand(3)
    if kind == "float32 (general)":
        return T.tensor([0.5, 1.5], dtype=T.float32, requires_grad=True) * 2.0
    raise KeyError(kind)


KINDS = ["0d leaf", "1d history", "2d history", "1d leaf", "constant", "expanded (general)", "float32 (general)"]


def _outcome(make, kind):
    x = _inputs(kind)
    y = make(x)
    row = [y.detach().numpy().tobytes(), y.dtype, tuple(y.shape), y.requires_grad, y.detach().numpy().strides,
           _full_graph(y) if y.grad_fn is not None else None]
    if y.requires_grad:
        leaf = x if x.grad_fn is None else x.grad_fn.next_functions[0][0].variable
        (g,) = T.autograd.grad(y.sum(), leaf, create_graph=True)
        row += [g.detach().numpy().tobytes(), _full_graph(g)]
        if g.requires_grad:  # (not for x ** 0, whose gradient is a constant zero)
            (h,) = T.autograd.grad(g.sum(), leaf, allow_unused=True)
            row.append(None if h is None else h.numpy().tobytes())
    return row


def _both_paths(monkeypatch, module, name, make, kind):
    taken = []
    fast = getattr(module, name)

    def spy(*args):
        out = fast(*args)
        taken.append(out is not None)
        return out

    monkeypatch.setattr(module, name, spy)
    with_fast = _outcome(make, kind)
    monkeypatch.setattr(module, name, lambda *args: None)
    general = _outcome(make, kind)
    monkeypatch.setattr(module, name, fast)
    return with_fast, general, taken


@pytest.mark.parametrize("exponent", [2, 3, 2.0, 0.5, -1, -2, -0.5, 0, 1.7, 3.0])
@pytest.mark.parametrize("kind", KINDS)
def test_pow_same_as_general_path(kind, exponent, monkeypatch):
    from autograd_py.ops import powers
    fast, general, taken = _both_paths(monkeypatch, powers, "_pow_plain", lambda x: x ** exponent, kind)
    assert fast == general
    assert taken[0] == ("general" not in kind)


@pytest.mark.parametrize("factor", [3.0, -0.5, 0.0, -0.0, float("nan")])
@pytest.mark.parametrize("kind", KINDS)
def test_mul_scalar_same_as_general_path(kind, factor, monkeypatch):
    from autograd_py.ops import plain_binary, pointwise, zerotensor
    made = zerotensor.made[0]
    zerotensor.made[0] = False  # (once a zero tensor was made, the fast path steps aside)
    try:
        fast, general, taken = _both_paths(monkeypatch, plain_binary, "scaled",
                                           lambda x: pointwise.mul_scalar(x, factor), kind)
    finally:
        zerotensor.made[0] = made
    assert fast == general
    assert taken[0] == (kind != "float32 (general)")  # an expanded input is multiplied as it is laid out


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("kind", KINDS)
def test_sum_same_as_general_path(kind, keepdim, monkeypatch):
    from autograd_py.ops import reduction
    fast, general, taken = _both_paths(monkeypatch, reduction, "_sum_all", lambda x: x.sum(keepdim=keepdim), kind)
    assert fast == general
    assert taken[:1] == ([] if kind == "float32 (general)" else [True])


def test_create_graph_formulas_take_the_fast_paths(monkeypatch):
    """W5's second derivative: pow's backward records its power and scalar product inline."""
    from autograd_py.ops import plain_binary, powers, zerotensor
    seen = []

    def spy(module, name):
        fast = getattr(module, name)

        def run(*args):
            out = fast(*args)
            seen.append((name, out is not None))
            return out

        monkeypatch.setattr(module, name, run)

    spy(powers, "_pow_plain")
    spy(plain_binary, "scaled")
    x = T.tensor([0.5, 1.0, 2.0], dtype=T.float64, requires_grad=True)
    made = zerotensor.made[0]
    zerotensor.made[0] = False  # (as no zero tensor was made yet)
    try:
        (g,) = T.autograd.grad((x ** 3 * T.sin(x)).sum(), x, create_graph=True)
    finally:
        zerotensor.made[0] = made
    assert seen == [("_pow_plain", True), ("_pow_plain", True), ("scaled", True)]
    assert g.grad_fn.name() == "AddBackward0"
