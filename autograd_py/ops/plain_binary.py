"""The common case of ``+``, ``-`` and ``*``, computed and recorded without the general operand
handling: a float64 or float32 tensor of at most one dim with a Python float or a tensor of its
dtype and shape, neither an efficient zero tensor, while nothing else watches recording (no
forward-mode levels, no saved-tensor hooks).

There is then nothing to promote, broadcast or lay out, and no input metadata for the engine to
check; the result is what the general path computes: the ufunc on the arrays, or, for 0-dim
tensors, the operator on the numbers (Python floats for float64, NumPy scalars for float32: IEEE
arithmetic like the ufunc's; see ``base.scalar_operands``). W1's chain and micrograd-style scalar
networks are all such ops. ``add``, ``sub`` and ``mul`` are the ops made here (``summing``,
``product``), so that this case costs one Python call; they hand anything else to pointwise's
general ops (``general``).
"""
import numpy as np

from .. import forward_mode
from .._tensor import Tensor, _new
from ..grad_mode import _inference, _state as _grad_enabled
from ..node import _sequence
from ..saved_tensor import default_hooks, saved_input
from .base import _NO_EDGE, _plain_edge, node_recorder
from .zerotensor import made as _zeros_made

_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)
_asarray = np.asarray
_fw_levels = forward_mode.levels
_wrapped = {}  # float -> (that float object, it as a 0-dim float64 array)


def _wrap(number):
    if len(_wrapped) >= 64:
        _wrapped.clear()
    # keyed by value (-0.0 finds 0.0's entry), so a hit is checked to be the same float object
    w = _wrapped[number] = (number, _asarray(number, _F64))
    return w


def as_array(number):
    """The Python float ``number`` as a 0-dim float64 array, which NumPy multiplies a float64 array
    by at half a float's cost, with the same products. Cached by value: equal floats are the same
    double but for 0.0 and -0.0, which only the same float object finds (and a NaN only itself)."""
    w = _wrapped.get(number)
    return (w if w is not None and (w[0] is number or number) else _wrap(number))[1]


# The general ops (pointwise's) each op below falls back to, by name; a test swaps them to spy.
general = {}


def summing(name, ufunc, op, node_cls):
    """The op ``name(input, other, alpha=1)`` (add or sub): the plain case computed and recorded in
    the op itself, without a second Python call (a third of a 0-dim op's time); anything else goes
    to ``general[name]``. Its results and graph are the general path's: ``ufunc`` on the arrays,
    ``op`` on the numbers at 0 dims, ``node_cls`` with alpha 1."""

    def fast(input, other, alpha=1):
        if alpha.__class__ is not int or alpha != 1 or input.__class__ is not Tensor:
            return general[name](input, other, alpha)
        a = input._data
        dt = a.dtype
        if dt is not _F64 and dt is not _F32 or a.ndim > 1 or _inference[0] or _fw_levels or default_hooks:
            return general[name](input, other, alpha)
        cls = other.__class__
        if cls is float:
            b, other_rg = other, False
        elif cls is Tensor:
            b = other._data
            if b.dtype is not dt or b.shape != a.shape:
                return general[name](input, other, alpha)
            other_rg = other._requires_grad
        else:
            return general[name](input, other, alpha)
        if _zeros_made[0] and ("_zerotensor" in input.__dict__ or cls is Tensor and "_zerotensor" in other.__dict__):
            return general[name](input, other, alpha)  # an efficient zero tensor's sum (zerotensor.total)
        recording = _grad_enabled[0] and (input._requires_grad or other_rg)
        if recording:  # the edges first: an input that needs the general path's care leaves it all to it
            if not input._requires_grad:
                first = _NO_EDGE
            elif input._grad_fn is not None and input._kept_fn is None and input._fn_shape is None:
                first = (input._grad_fn, input._output_nr)
            else:
                first = _plain_edge(input, a)
            if not other_rg:
                second = _NO_EDGE
            elif other._grad_fn is not None and other._kept_fn is None and other._fn_shape is None:
                second = (other._grad_fn, other._output_nr)
            else:
                second = _plain_edge(other, a)
            if first is None or second is None:
                return general[name](input, other, alpha)
        out = _new(Tensor)  # _make's body
        if a.ndim:
            if cls is float and dt is _F64:
                # NumPy takes a number as a 0-dim float64 array faster than as a Python float (no weak
                # scalar to promote), with the same values
                w = _wrapped.get(b)
                b = (w if w is not None and w[0] is b else _wrap(b))[1]
            out._data = ufunc(a, b)
        elif dt is _F64:  # IEEE arithmetic on Python floats: NumPy scalars' own, at half their cost
            out._data = _asarray(op(float(a), b if cls is float else float(b)))
        else:
            out._data = _asarray(op(a[()], b if cls is float else b[()]))
        out._version_counter = [0]
        if recording:
            node = _new(node_cls)  # Node.__init__'s body (the node classes here have no __init__ of their own)
            node._seq = next(_sequence)
            node._vars = None
            node._next_functions = (first, second)
            node._input_meta = None
            node.alpha = 1
            out._grad_fn = node
            out._requires_grad = True
            if node_recorder[0] is not None:
                node_recorder[0](node)
        return out

    return fast


def product(name, ufunc, op, node_cls):
    """The op ``name(input, other)`` (mul): ``summing``'s op for a product, whose node (``node_cls``,
    MulBackward0) saves each operand for the other's gradient."""

    def fast(input, other):
        if input.__class__ is not Tensor:
            return general[name](input, other)
        a = input._data
        dt = a.dtype
        if dt is not _F64 and dt is not _F32 or a.ndim > 1 or _inference[0] or _fw_levels or default_hooks:
            return general[name](input, other)
        cls = other.__class__
        if cls is float:
            b, other_rg = other, False
        elif cls is Tensor:
            b = other._data
            if b.dtype is not dt or b.shape != a.shape:
                return general[name](input, other)
            other_rg = other._requires_grad
        else:
            return general[name](input, other)
        if _zeros_made[0] and ("_zerotensor" in input.__dict__ or cls is Tensor and "_zerotensor" in other.__dict__):
            return general[name](input, other)  # an efficient zero tensor's product (zerotensor.product)
        recording = _grad_enabled[0] and (input._requires_grad or other_rg)
        if recording:  # (as summing's)
            if not input._requires_grad:
                first = _NO_EDGE
            elif input._grad_fn is not None and input._kept_fn is None and input._fn_shape is None:
                first = (input._grad_fn, input._output_nr)
            else:
                first = _plain_edge(input, a)
            if not other_rg:
                second = _NO_EDGE
            elif other._grad_fn is not None and other._kept_fn is None and other._fn_shape is None:
                second = (other._grad_fn, other._output_nr)
            else:
                second = _plain_edge(other, a)
            if first is None or second is None:
                return general[name](input, other)
        out = _new(Tensor)  # (as summing's)
        if a.ndim:
            if cls is float and dt is _F64:
                w = _wrapped.get(b)
                b = (w if w is not None and w[0] is b else _wrap(b))[1]
            out._data = ufunc(a, b)
        elif dt is _F64:
            out._data = _asarray(op(float(a), b if cls is float else float(b)))
        else:
            out._data = _asarray(op(a[()], b if cls is float else b[()]))
        out._version_counter = [0]
        if recording:
            node = _new(node_cls)
            node._seq = next(_sequence)
            node._next_functions = (first, second)
            node._input_meta = None
            # Each is saved only for the other's gradient, so only when that one has an edge (a view
            # made under no_grad has none): PyTorch's should_compute_output guard on the save.
            saved = {}
            if first[0] is not None:
                saved["other"] = other if cls is float else saved_input(other)
            if second[0] is not None:
                saved["self"] = saved_input(input)
            node._vars = saved
            out._grad_fn = node
            out._requires_grad = True
            if node_recorder[0] is not None:
                node_recorder[0](node)
        return out

    return fast


def scaled(input, other, node_cls):
    """``mul_scalar(input, other)`` for a float64 tensor and a Python float while nothing else watches
    recording (the scalar products of backward formulas under create_graph: pow's, tanh's), recorded
    as ``node_cls`` (MulBackward1) when it requires grad; None when the general path is needed."""
    a = input._data
    if a.dtype is not _F64 or _inference[0] or _fw_levels or default_hooks:
        return None
    if _zeros_made[0] and "_zerotensor" in input.__dict__:
        return None  # an efficient zero tensor's product (zerotensor.product)
    if a.ndim:
        w = _wrapped.get(other)
        res = np.multiply(a, (w if w is not None and (w[0] is other or other) else _wrap(other))[1])
    else:
        res = _asarray(np.multiply(a, other))  # the ufunc's NumPy scalar, as the general path
    if input._requires_grad and _grad_enabled[0]:
        fn = input._grad_fn
        if fn is not None and input._kept_fn is None and input._fn_shape is None:
            edge = (fn, input._output_nr)  # _plain_edge's common case
        else:
            edge = _plain_edge(input, a)
            if edge is None:
                return None
        node = _new(node_cls)  # Node.__init__'s body
        node._seq = next(_sequence)
        node._vars = None
        node.other = other
        node._next_functions = (edge,)
        node._input_meta = None
        out = _new(Tensor)  # _make's body
        out._data = res
        out._version_counter = [0]
        out._grad_fn = node
        out._requires_grad = True
        if node_recorder[0] is not None:
            node_recorder[0](node)
        return out
    out = _new(Tensor)
    out._data = res
    out._version_counter = [0]
    return out
