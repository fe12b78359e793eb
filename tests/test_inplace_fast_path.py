"""In-place writes that record nothing (ops/inplace_fast.py) give what ``inplace.apply``'s general path gives.

``apply`` writes ``fn(t)`` into ``t`` at once when ``inplace_fast.unwatched`` finds nothing to check,
record or order (a training loop's ``with torch.no_grad(): p -= lr * p.grad``). Each case here runs
twice, once as it stands and once with that shortcut turned off (``inplace_fast.enabled``), and the
two must agree on the written tensors' bytes and dtype, ``_version``, ``grad_fn``, ``requires_grad``
and ``is_leaf`` (the target's and those of its views, base and aliases), the value returned, and the
error raised (type and message). Where PyTorch 2.13 is installed each case also runs there, for the
same observations. The last tests check that the common statements do take the shortcut, so that
the speed-up cannot quietly go away, and that the cases it must leave alone do not.
"""
import sys
import warnings

import numpy as np
import pytest

import autograd_py as ag
from autograd_py import saved_tensor
from autograd_py.ops import inplace, inplace_fast, zerotensor


def _real_torch():
    # Imported before any test maps ``torch`` to autograd_py (the playground's sessions do).
    try:
        import torch
    except ImportError:
        return None
    return torch if hasattr(torch, "_C") and torch.__version__.startswith("2.13") else None


REAL = _real_torch()
REAL_TORCH_MODULES = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}


# ---------------------------------------------------------------------------- observing a case
def _read(get):
    try:
        return get()
    except RuntimeError as e:  # an inference tensor's version, a stale no_grad view's grad_fn
        return "raises: " + str(e)


def _state(x):
    data = x.detach().numpy()
    return (data.tobytes(), str(x.dtype), tuple(x.shape), _read(lambda: x._version),
            _read(lambda: x.grad_fn.name() if x.grad_fn is not None else None), x.requires_grad,
            _read(lambda: x.is_leaf))


def observe(T, case):
    """What running ``case`` under the torch-like module ``T`` leaves: (error, returned-is-target,
    the state of each watched tensor, warnings)."""
    target, watched, act = case(T)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = act()
            error = None
        except Exception as e:  # noqa: BLE001 (the error is what is compared)
            out, error = None, (type(e).__name__, str(e))
    return error, out is target, [_state(x) for x in watched], [str(w.message) for w in caught]


def _general(case):
    inplace_fast.enabled[0] = False
    try:
        return observe(ag, case)
    finally:
        inplace_fast.enabled[0] = True


def _in_real_torch(case):
    if REAL is None:
        pytest.skip("PyTorch 2.13 is not installed")
    current = {k: v for k, v in sys.modules.items() if k == "torch" or k.startswith("torch.")}
    sys.modules.update(REAL_TORCH_MODULES)
    threads = REAL.get_num_threads()
    REAL.set_num_threads(1)
    try:
        return observe(REAL, case)
    finally:
        REAL.set_num_threads(threads)
        sys.modules.update(current)


# ---------------------------------------------------------------------------- the grid
SHAPES = {"0d": (), "1d": (3,), "2d": (2, 3)}
FLOATS = [[0.1, -2.25, 1 / 3], [7.5, -0.3, 1e-3]]
INTS = [[3, -7, 12], [5, 0, -2]]


def _values(shape, dtype_name, second=False):
    rows = INTS if dtype_name == "int64" else FLOATS
    rows = rows[::-1] if second else rows
    if shape == ():
        return rows[0][1]
    return rows[0] if shape == (3,) else rows


def _tensor(T, shape, dtype_name, second=False):
    return T.tensor(_values(shape, dtype_name, second), dtype=getattr(T, dtype_name))


OPERANDS = {
    "int 2": lambda T, shape, dt: 2,
    "float 0.05": lambda T, shape, dt: 0.05,
    "float 1/3": lambda T, shape, dt: 1 / 3,
    "bool True": lambda T, shape, dt: True,
    "same dtype": lambda T, shape, dt: _tensor(T, shape, dt, second=True),
    "float64 tensor": lambda T, shape, dt: _tensor(T, shape, "float64", second=True),
    "float32 tensor": lambda T, shape, dt: _tensor(T, shape, "float32", second=True),
    "int64 tensor": lambda T, shape, dt: _tensor(T, shape, "int64", second=True),
    "0d float64 tensor": lambda T, shape, dt: T.tensor(0.3, dtype=T.float64),
    "row (3,)": lambda T, shape, dt: _tensor(T, (3,), dt, second=True),
    "matrix (2, 3)": lambda T, shape, dt: _tensor(T, (2, 3), dt, second=True),
}

OPS = {
    "-=": lambda t, o: t.__isub__(o),
    "+=": lambda t, o: t.__iadd__(o),
    "*=": lambda t, o: t.__imul__(o),
    "/=": lambda t, o: t.__itruediv__(o),
    "sub_": lambda t, o: t.sub_(o),
    "add_ alpha=-0.1": lambda t, o: t.add_(o, alpha=-0.1),
    "add_ alpha=2": lambda t, o: t.add_(o, alpha=2),
    "mul_": lambda t, o: t.mul_(o),
}


def _grid_target(T, kind, shape, dt):
    """The tensor written, under the grad mode ``kind`` names."""
    if kind == "plain":
        return _tensor(T, shape, dt)
    leaf = _tensor(T, shape, dt)
    if dt != "int64":
        leaf.requires_grad_()
    return leaf if kind == "leaf under no_grad" else leaf.data


def grid_case(kind, shape, dt, operand, op):
    def case(T):
        t = _grid_target(T, kind, shape, dt)
        o = OPERANDS[operand](T, shape, dt)
        if kind == "leaf under no_grad":
            def act():
                with T.no_grad():
                    return OPS[op](t, o)
        else:
            def act():
                return OPS[op](t, o)
        return t, [t] + ([o] if hasattr(o, "shape") else []), act
    return case


GRID = [pytest.param(grid_case(kind, shape, dt, operand, op), id=f"{kind}-{sid}-{dt}-{operand}-{op}")
        for kind in ("plain", "leaf under no_grad", "data")
        for sid, shape in SHAPES.items()
        for dt in ("float32", "float64", "int64")
        for operand in OPERANDS
        for op in OPS]


# ---------------------------------------------------------------------------- cases the grid has not
def _zero_tensor(T, n):
    if hasattr(T, "_efficientzerotensor"):
        return T._efficientzerotensor(n)
    return zerotensor.mark(ag.zeros(n))


def _case(fn):
    SPECIAL.append(pytest.param(fn, id=fn.__name__))
    return fn


SPECIAL = []


@_case
def leaf_requiring_grad_under_grad_mode(T):
    p = T.tensor([0.5, 1.5], requires_grad=True)
    return p, [p], lambda: p.sub_(0.1)


@_case
def non_leaf_recorded(T):
    x = T.tensor([0.5, 1.5], requires_grad=True)
    y = x * 2
    return y, [x, y], lambda: y.add_(T.tensor([1.0, 2.0]), alpha=0.5)


@_case
def non_leaf_under_no_grad(T):
    x = T.tensor(0.5, dtype=T.float64, requires_grad=True)
    y = x * 2

    def act():
        with T.no_grad():
            return y.__isub__(0.05 * T.tensor(0.25, dtype=T.float64))
    return y, [x, y], act


@_case
def operand_requiring_grad(T):
    t = T.zeros(2)
    x = T.tensor([0.5, 1.5], requires_grad=True)
    return t, [t, x], lambda: t.__iadd__(x)


@_case
def operand_requiring_grad_under_no_grad(T):
    t = T.zeros(2)
    x = T.tensor([0.5, 1.5], requires_grad=True)

    def act():
        with T.no_grad():
            return t.__iadd__(x * 3)
    return t, [t, x], act


@_case
def view_written(T):
    b = T.zeros(2, 3)
    v = b[1]
    return v, [b, v], lambda: v.__isub__(0.5)


@_case
def view_of_leaf_under_no_grad(T):
    b = T.ones(2, 3, requires_grad=True)
    v = b[0]

    def act():
        with T.no_grad():
            return v.mul_(0.5)
    return v, [b, v], act


@_case
def view_of_leaf_under_grad_mode(T):
    b = T.ones(2, 3, requires_grad=True)
    v = b[0]
    return v, [b, v], lambda: v.mul_(0.5)


@_case
def base_with_a_live_view(T):
    b = T.zeros(2, 3)
    v = b[1]
    return b, [b, v], lambda: b.__iadd__(T.ones(2, 3))


@_case
def leaf_with_a_live_view_under_no_grad(T):
    b = T.ones(2, 3, requires_grad=True)
    v = b.view(6)

    def act():
        with T.no_grad():
            return b.__isub__(0.1 * T.ones(2, 3))
    return b, [b, v], act


@_case
def leaf_with_a_view_taken_under_no_grad(T):
    b = T.ones(3, requires_grad=True)
    with T.no_grad():
        v = b[:2]

    def act():
        with T.no_grad():
            return b.add_(T.ones(3), alpha=-0.5)
    return b, [b, v], act


@_case
def tensor_with_a_detached_alias(T):
    a = T.ones(3)
    d = a.detach()
    return a, [a, d], lambda: a.__iadd__(1)


@_case
def detached_alias_written_while_the_source_has_views(T):
    a = T.ones(2, 3, requires_grad=True)
    v = a[0]
    d = a.detach()
    return d, [a, v, d], lambda: d.mul_(3)


@_case
def tensor_plus_itself(T):
    t = T.tensor([1.0, 2.0, 3.0])
    return t, [t], lambda: t.__iadd__(t)


@_case
def tensor_plus_its_data(T):
    t = T.tensor([1.0, 2.0, 3.0])
    return t, [t], lambda: t.__iadd__(t.data)


@_case
def tensor_plus_one_of_its_elements(T):
    t = T.tensor([1.0, 2.0, 3.0])
    return t, [t], lambda: t.__iadd__(t[0])


@_case
def matrix_plus_its_first_row(T):
    t = T.tensor([[1.0, 2.0], [3.0, 4.0]])
    return t, [t], lambda: t.__iadd__(t[0])


@_case
def matrix_minus_its_transpose(T):
    t = T.tensor([[1.0, 2.0], [3.0, 4.0]])
    return t, [t], lambda: t.__isub__(t.t())


@_case
def numpy_memory_shared_without_a_view(T):
    arr = np.array([[1.0, 2.0], [3.0, 4.0]])
    t = T.from_numpy(arr)
    o = T.from_numpy(arr[1])
    return t, [t], lambda: t.__iadd__(o)


@_case
def transposed_numpy_storage(T):
    t = T.from_numpy(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).T)
    return t, [t], lambda: t.__isub__(T.tensor([0.5, 0.25]))


@_case
def zero_tensor_written(T):
    z = _zero_tensor(T, 3)
    return z, [], lambda: z.__iadd__(1)


@_case
def zero_tensor_operand(T):
    t = T.ones(3)
    z = _zero_tensor(T, 3)
    return t, [t], lambda: t.__iadd__(z)


@_case
def inference_tensor_outside_inference_mode(T):
    with T.inference_mode():
        t = T.ones(3)
    return t, [t], lambda: t.__isub__(1)


@_case
def inference_tensor_inside_inference_mode(T):
    with T.inference_mode():
        t = T.ones(3)

    def act():
        with T.inference_mode():
            return t.__isub__(1)
    return t, [t], act


@_case
def under_a_forward_mode_level(T):
    t = T.ones(3)

    def act():
        with T.autograd.forward_ad.dual_level():
            return t.mul_(3)
    return t, [t], act


@_case
def dual_tensor_written(T):
    fwAD = T.autograd.forward_ad
    t = T.ones(3)

    def act():
        with fwAD.dual_level():
            d = fwAD.make_dual(t, T.tensor([1.0, 2.0, 3.0]))
            d.mul_(3)
            return fwAD.unpack_dual(d).tangent
    return None, [t], act


@_case
def grad_zeroed(T):
    p = T.tensor([0.5, 1.5], requires_grad=True)
    (p * p).sum().backward()
    return p.grad, [p, p.grad], lambda: p.grad.zero_()


@_case
def fill_and_copy(T):
    t = T.zeros(2, 3)

    def act():
        t.fill_(2.5)
        t.copy_(T.tensor([1, 2, 3]))
        return t.copy_(t)
    return t, [t], act


@_case
def keyword_operands(T):
    t = T.tensor([-1.0, 0.5, 2.0])
    a, b = T.tensor([1.0, 2.0, 3.0]), T.tensor([0.5, 0.25, 4.0])

    def act():
        t.clamp_(min=0.0)
        t.addcmul_(a, b, value=0.5)
        return t.add_(other=a)
    return t, [t], act


@_case
def relu_in_place(T):
    t = T.tensor([-1.0, 0.5, 2.0])
    return t, [t], lambda: T.nn.functional.relu(t, inplace=True)


@_case
def uniform_under_no_grad(T):
    T.manual_seed(0)
    w = T.empty(2, 3, requires_grad=True)

    def act():
        with T.no_grad():
            return w.uniform_(-0.5, 0.5)
    return w, [w], act


@_case
def uniform_of_a_leaf_under_grad_mode(T):
    w = T.empty(2, 3, requires_grad=True)
    return w, [], lambda: w.uniform_(-0.5, 0.5)


@_case
def int_tensor_divided_by_int(T):
    t = T.tensor([3, 4])
    return t, [t], lambda: t.__itruediv__(2)


@_case
def float16_tensor_plus_float64(T):
    t = T.tensor([0.1, 1 / 3], dtype=T.float16)
    return t, [t], lambda: t.__iadd__(T.tensor([1e-4, 0.3], dtype=T.float64))


@_case
def bool_tensor_or_int(T):
    t = T.tensor([True, False])
    return t, [t], lambda: t.__iadd__(1)


# ---------------------------------------------------------------------------- the tests
@pytest.mark.parametrize("case", GRID + SPECIAL)
def test_the_shortcut_gives_what_the_general_path_gives(case):
    assert observe(ag, case) == _general(case)


def _known_divergence(param):
    """Why autograd_py's general path, and so the shortcut, still differs from PyTorch here (both
    paths agree): a test that then passes fails (strict), so that the mark goes with the fix."""
    name = param.id
    if ("int64" in name and ("-/=" in name or "alpha=-0.1" in name)
            and ("0d-int64-row" in name or "0d-int64-matrix" in name or "1d-int64-matrix" in name)):
        # PyTorch's TensorIterator checks the output's shape before the result type and alpha
        return "the cast or alpha error comes before the broadcast shape error"
    if name.endswith("float64-0d float64 tensor-add_ alpha=-0.1") and "-0d-" not in name:
        return "PyTorch's add with a 0-dim tensor operand multiplies it by alpha apart (no fma): 1 ulp"
    if name == "numpy_memory_shared_without_a_view":
        return "PyTorch sees overlap within one storage only (two from_numpy tensors have two)"
    if name == "bool_tensor_or_int":
        return "PyTorch refuses to cast an int64 result into a bool tensor"
    return None


def _marked(params):
    for param in params:
        reason = _known_divergence(param)
        yield param if reason is None else pytest.param(
            *param.values, id=param.id, marks=pytest.mark.xfail(reason=reason, strict=True))


@pytest.mark.parametrize("case", list(_marked(GRID + SPECIAL)))
def test_the_shortcut_gives_what_pytorch_gives(case):
    expected = _in_real_torch(case)
    got = observe(ag, case)
    assert got[:3] == expected[:3]


def test_the_general_path_is_what_the_comparison_runs(monkeypatch):
    checked = []
    monkeypatch.setattr(inplace, "check", lambda t: checked.append(t))
    t = ag.zeros(3)
    _general(lambda T: (t, [t], lambda: t.__isub__(1.0)))
    assert checked == [t]


def _statements():
    """A learner's updates: micrograd's on 0-dim float64 leaves, W2's on float32 and float64 arrays."""
    p = ag.tensor(0.5, dtype=ag.float64, requires_grad=True)
    (p * p).backward()
    w = ag.randn(784, 128, requires_grad=True)
    (w * w).sum().backward()
    w64 = ag.randn(3, 4, dtype=ag.float64, requires_grad=True)
    (w64 * w64).sum().backward()
    buf = ag.zeros(3, 4, dtype=ag.float64)
    return [
        lambda: p.__isub__(0.05 * p.grad),
        lambda: p.sub_(0.05 * p.grad),
        lambda: p.add_(p.grad, alpha=-0.05),
        lambda: p.mul_(0.9),
        lambda: w.__isub__(0.1 * w.grad),
        lambda: w.add_(w.grad, alpha=-0.1),
        lambda: w64.sub_(0.1 * w64.grad),
        lambda: w64.__imul__(0.5),
        lambda: buf.mul_(0.9).add_(w64.grad, alpha=0.1),
        lambda: w64.data.__isub__(0.1 * w64.grad),
        lambda: p.grad.zero_(),
        lambda: w.grad.zero_(),
    ]


def test_a_learners_updates_take_the_shortcut(monkeypatch):
    def general(*args, **kwargs):
        raise AssertionError("took inplace.apply's general path")
    statements = _statements()
    monkeypatch.setattr(inplace, "check", general)
    monkeypatch.setattr(inplace, "check_overlap", general)
    with ag.no_grad():
        for statement in statements:
            statement()


@pytest.mark.parametrize("case", [view_written, base_with_a_live_view, non_leaf_recorded, tensor_plus_its_data,
                                  matrix_plus_its_first_row, under_a_forward_mode_level, zero_tensor_written,
                                  transposed_numpy_storage, operand_requiring_grad])
def test_the_cases_it_must_not_take_or_need_not_reach_the_checks(case, monkeypatch):
    # base_with_a_live_view and tensor_plus_its_data may take it: their views are refreshed and the
    # shared memory is each element's own; the others must be checked.
    checked = []
    check = inplace.check
    monkeypatch.setattr(inplace, "check", lambda t: checked.append(t) or check(t))
    observe(ag, case)
    taken = not checked
    assert taken == (case in (base_with_a_live_view, tensor_plus_its_data))


def test_a_before_write_hook_sees_every_write():
    seen = []
    saved_tensor.before_write[0] = seen.append
    try:
        t = ag.zeros(3)
        with ag.no_grad():
            t -= 1.0
    finally:
        saved_tensor.before_write[0] = None
    assert seen == [t] and t._version == 1
