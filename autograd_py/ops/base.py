"""What every op needs: recording a node, PyTorch's type promotion and view bookkeeping."""
import numbers

import numpy as np

from .. import dtypes, forward_mode, grad_mode
from .._tensor import Tensor, _make, _new  # noqa: F401  (_new: the ops' inlined _make)
from ..saved_tensor import bump_version

__all__ = ["Tensor", "_make", "grad_on", "record", "record_outputs", "as_view", "operands",
           "to_tensor", "np", "float_data", "result_np_dtype", "batch_ndim", "batched"]


# Leading batch dims carried by every gradient during a vectorized backward
# (``jacobian(vectorize=True)``): one pass computes many vector-Jacobian products at once.
# Backward formulas use negative dims, and ``batched`` for shapes, so they work either way.
batch_ndim = [0]


def batched(grad, shape):
    """The shape a gradient for a tensor of ``shape`` has in the current pass."""
    nb = batch_ndim[0]
    return grad._data.shape[:nb] + tuple(shape) if nb else tuple(shape)


def grad_on(*tensors):
    """True when a node is to be recorded: grad mode is on and some input requires grad, or some
    input carries a forward-mode tangent (which no_grad does not stop)."""
    if grad_mode._state[0]:
        for t in tensors:
            if isinstance(t, Tensor) and t._requires_grad:
                return True
    if forward_mode.levels:
        return forward_mode.has_dual(tensors)
    return False


def _backward_on(inputs):
    if grad_mode._state[0]:
        for t in inputs:
            if isinstance(t, Tensor) and t._requires_grad:
                return True
    return False


_NO_EDGE = (None, 0)
_fw_levels = forward_mode.levels


class RgWithoutEdge(tuple):
    """``(None, 0)``, no edge, for an input that requires grad all the same (a view made under
    no_grad) and remembers the view's ``base``: torch.func's levels follow it to tell whether the
    node's output depends on an outer tensor (functorch sees that view unwrapped, requiring grad),
    where the edges cannot."""


# The playground's provenance recorder (``playground.provenance``), called with every node that gets
# its edges here, which every recorded node does (ops, Functions, CopySlices); None outside the
# playground, so recording costs one check.
node_recorder = [None]


def _edges(node, inputs, like=None):
    """Sets ``next_functions`` and the input metadata the engine checks gradients against.

    With ``like`` (the op's output), an input with the output's shape and dtype needs no check,
    since a built-in formula then returns a gradient of that shape: ``_input_meta`` holds None
    for it, and is None altogether when no input needs one (the common case, kept cheap).
    """
    edges = []
    meta = None
    i = -1
    if like is not None:
        like_shape, like_dtype = like.shape, like.dtype
    for t in inputs:
        i += 1
        if not (t.__class__ is Tensor or isinstance(t, Tensor)) or not t._requires_grad:
            edges.append(_NO_EDGE)
            continue
        fn = t._grad_fn
        if t._kept_fn is not None:
            from .inplace import settle
            settle(t)
        d = t._data
        shape = d.shape
        check = like is None
        if fn is not None:
            edges.append((fn, t._output_nr))
            if t._fn_shape is not None and t._fn_shape[0] is fn:
                # reshaped in place under no_grad since: PyTorch checks the shape its grad_fn gave
                shape, check = t._fn_shape[1], True
        elif t._creation_meta is None and not t._rg_from_base:
            acc = t._accumulator or t._get_accumulator()
            edges.append((acc, 0))
            if acc.shape != shape:  # reshaped in place since: PyTorch checks the shape it had then
                shape, check = acc.shape, True
        else:
            edges.append(_view_edge(t))
        if check or shape != like_shape or (d.dtype is not like_dtype and d.dtype != like_dtype):
            if meta is None:
                meta = [None] * len(inputs)
            meta[i] = (shape, d.dtype)
    node._next_functions = tuple(edges)
    node._input_meta = meta
    if node_recorder[0] is not None:
        node_recorder[0](node)


def _view_edge(t):
    """A view without history that requires grad through its base (made under no_grad, or before
    the base's ``requires_grad_()``) has no accumulator: PyTorch gives it no edge, unless the view
    itself was given ``requires_grad_()``."""
    if "_stale_view" in t.__dict__:
        from .view_meta import stale_error
        raise stale_error(t)
    if t._rg_from_base:
        edge = RgWithoutEdge(_NO_EDGE)
        edge.base = t._base
        return edge
    return (t._accumulator or t._get_accumulator(), 0)


# Above 0 while an in-place op runs its out-of-place twin: PyTorch's rebase_history gives an integer
# tensor history without the dtype check of an out-of-place op's set_history.
in_place = [0]


def _check_differentiable(data):
    """PyTorch's set_history: an integer tensor given history in place (``int_t[0] = x``) makes any
    out-of-place op on it fail, since its integer result cannot record one."""
    if data.dtype.kind not in "fc" and not in_place[0]:
        raise RuntimeError(f"Autograd not support dtype: {dtypes.from_numpy_dtype(data.dtype).legacy_name[:-6]}")


def record(out, node, inputs):
    """Makes ``node`` the ``grad_fn`` of ``out``; ``inputs`` are the op's operands, in order
    (numbers stay in the list, as PyTorch keeps a ``(None, 0)`` edge for a wrapped scalar)."""
    if forward_mode.levels and forward_mode.has_dual(inputs):
        if _backward_on(inputs):
            _record(out, node, inputs)
        else:
            node._next_functions, node._input_meta = (_NO_EDGE,) * len(inputs), None
        if out._data.dtype.kind in "fc":
            forward_mode.propagate(out, node, inputs)
        return out
    # _record's body, inlined: this runs once per recorded op
    data = out._data
    if data.dtype.kind not in "fc":
        _check_differentiable(data)
    _edges(node, inputs, data)
    out._grad_fn = node
    out._requires_grad = True
    return out


_NUMBERLESS = object()


def record_like(out, node, t, other=_NUMBERLESS):
    """``record`` for an elementwise op of ``t`` and maybe ``other`` (a Python number or a tensor).

    In the common case the inputs' edges need no shape or dtype check (``out`` has ``t``'s dtype
    and shape, and ``other``'s if it is a tensor that requires grad), so the general loop of
    ``_edges`` is skipped; anything else goes to ``record``.
    """
    data = out._data
    edges = None
    if not _fw_levels and data.dtype.kind in "fc":
        first = _plain_edge(t, data)
        if first is not None:
            cls = other.__class__
            if other is _NUMBERLESS:
                edges = (first,)
            elif cls is float or cls is int:
                edges = (first, _NO_EDGE)
            elif cls is Tensor and t._data.shape == data.shape:
                second = _plain_edge(other, data) if other._requires_grad else _NO_EDGE
                if second is not None and (second is _NO_EDGE or other._data.shape == data.shape):
                    edges = (first, second)
    if edges is None:
        return record(out, node, (t,) if other is _NUMBERLESS else (t, other))
    node._next_functions = edges
    node._input_meta = None
    out._grad_fn = node
    out._requires_grad = True
    if node_recorder[0] is not None:
        node_recorder[0](node)
    return out


def _plain_edge(t, like):
    """The edge of ``t`` (an input of an op with output ``like``) when it needs no check: it has
    ``like``'s dtype and, since its edge was made, was not reshaped in place nor had its history
    replaced; None otherwise (and for a view without history, which ``_edges`` handles)."""
    if t._kept_fn is not None or t._fn_shape is not None or t._data.dtype is not like.dtype:
        return None
    fn = t._grad_fn
    if fn is not None:
        return (fn, t._output_nr)
    if t._requires_grad and t._creation_meta is None and not t._rg_from_base:
        acc = t._accumulator or t._get_accumulator()
        if acc.shape == t._data.shape:
            return (acc, 0)
    return None


def _record(out, node, inputs):
    if out._data.dtype.kind not in "fc":
        _check_differentiable(out._data)
    _edges(node, inputs, out._data)
    out._grad_fn = node
    out._requires_grad = True
    return out


def record_outputs(outs, node, inputs):
    """``record`` for a node with several outputs (unbind, split)."""
    if forward_mode.levels and forward_mode.has_dual(inputs):
        if _backward_on(inputs):
            _record_outputs(outs, node, inputs)
        else:
            node._next_functions, node._input_meta = (_NO_EDGE,) * len(inputs), None
            node.num_outputs = len(outs)
        forward_mode.propagate(tuple(outs), node, inputs)
        return outs
    return _record_outputs(outs, node, inputs)


def _record_outputs(outs, node, inputs):
    for out in outs:
        if out._data.dtype.kind not in "fc":
            _check_differentiable(out._data)
    _edges(node, inputs)
    node.num_outputs = len(outs)
    for i, out in enumerate(outs):
        out._grad_fn = node
        out._output_nr = i
        out._requires_grad = True
    return outs


def written_in_place(t, times=1):
    """Returns the fresh tensor ``t``, which PyTorch's formula would have built by writing into a new
    tensor in place (``zeros(...).index_put_(...)``, ``.masked_fill_(...)``): its version shows the writes."""
    bump_version(t, times)
    return t


def as_view(out, base):
    """Marks ``out`` as a view of ``base``: same storage, same version counter.

    A view taken with grad mode off of a tensor that requires grad requires grad too, without
    history; it remembers the mode it was made in (see ``view_meta``).
    """
    out._base = base._base if base._base is not None else base
    out._version_counter = base._version_counter
    meta = base._creation_meta
    if not grad_mode._state[0]:
        meta = "inference" if meta == "inference" or grad_mode._inference[0] else "no_grad"
        if out._base._requires_grad:  # the root's flag: a view's own requires_grad_() is not inherited
            out._requires_grad = out._rg_from_base = True
    if meta is not None:
        out._creation_meta = meta
    return out


def _promote(a, b):
    """PyTorch's promote_types for two NumPy dtypes: a float beats any integer at its own width."""
    ca, cb = dtypes.category(a), dtypes.category(b)
    if ca != cb:
        return a if ca > cb else b
    return np.promote_types(a, b)


def result_np_dtype(*operands):
    """PyTorch's result type: dimensioned tensors, then 0-d tensors, then Python numbers; a lower
    group only counts when it brings a higher category (bool < integer < float)."""
    groups = [None, None, None]
    for x in operands:
        if isinstance(x, Tensor):
            d = x._data.dtype
            g = 0 if x._data.ndim else 1
        else:
            cat = dtypes.scalar_category(x)
            d = (dtypes.get_default_dtype().np if cat == 2 else
                 np.dtype(np.int64) if cat == 1 else np.dtype(np.bool_))
            g = 2
        groups[g] = d if groups[g] is None else _promote(groups[g], d)
    result = None
    for d in groups:
        if d is None:
            continue
        if result is None:
            result = d
        elif dtypes.category(d) > dtypes.category(result):
            result = _promote(result, d)
    return result


def check_broadcast(sa, sb):
    """Raises PyTorch's message when two shapes do not broadcast."""
    for i in range(1, min(len(sa), len(sb)) + 1):
        x, y = sa[-i], sb[-i]
        if x != y and x != 1 and y != 1:
            dim = max(len(sa), len(sb)) - i
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                               f"non-singleton dimension {dim}")


def _stale_first(*tensors):
    """PyTorch reads its inputs' grad_fn (collecting the graph's edges) before the kernel checks
    shapes: a view that cannot be regenerated raises its error first."""
    if grad_on(*tensors):
        for t in tensors:
            if isinstance(t, Tensor) and "_stale_view" in t.__dict__:
                from .view_meta import stale_error
                raise stale_error(t) from None


def operands(a, b):
    """The NumPy operands of a binary op, cast to PyTorch's result dtype."""
    ad = a._data
    if b.__class__ is float and ad.dtype.kind == "f":  # ``x * 0.5``: the common case first
        return (_laid_out(ad) if ad.ndim > 1 and 0 in ad.strides else ad), b
    if isinstance(b, Tensor):
        bd = b._data
        if ad.shape != bd.shape:
            try:
                check_broadcast(ad.shape, bd.shape)
            except RuntimeError:
                _stale_first(a, b)
                raise
        if ad.dtype == bd.dtype:
            return ad, bd
        dt = result_np_dtype(a, b)
        return _cast(ad, dt), _cast(bd, dt)
    cls = b.__class__
    if cls is not float and cls is not int:
        if isinstance(b, np.generic):
            b = b.item()
        elif not isinstance(b, numbers.Number):
            raise TypeError(f"unsupported operand type: '{type(b).__name__}'")
    kind = ad.dtype.kind
    if kind == "f" or (kind in "iu" and not isinstance(b, float)) or isinstance(b, bool):
        return (_laid_out(ad) if 0 in ad.strides else ad), b
    dt = result_np_dtype(a, b)
    return _laid_out(_cast(ad, dt)), b


_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)


def scalar_operands(a, b):
    """The operands of a binary op as NumPy scalars, when ``a`` is a 0-dim float64 or float32 array
    and ``b`` a Python number or a 0-dim array of ``a``'s dtype: their arithmetic is IEEE's like the
    ufunc's, at a fraction of its cost on 0-dim arrays (a micrograd-style scalar network is all such
    ops). None otherwise."""
    dt = a.dtype
    if dt is _F64 or dt is _F32:
        cls = b.__class__
        if cls is float or cls is int:
            return a[()], b
        if cls is np.ndarray and b.dtype is dt and not b.ndim:
            return a[()], b[()]
    return None


def _laid_out(d):
    """An expanded operand copied into TensorIterator's layout for the result (stride-0 dims kept in
    place), which a NumPy ufunc then follows; NumPy alone would put them innermost."""
    if 0 in d.strides and d.size > 1:
        from .pointwise import preserve_layout
        return preserve_layout(d, d.dtype)
    return d


def _cast(d, dt):
    """``d`` as ``dt``; an expanded array stays expanded (NumPy's K-order cast would lay its
    stride-0 dims innermost, and results computed from it would follow that layout)."""
    if 0 in d.strides and d.size > 1 and d.dtype != dt:
        first = tuple(slice(0, 1) if s == 0 else slice(None) for s in d.strides)
        return np.broadcast_to(d[first].astype(dt), d.shape)
    return d.astype(dt, copy=False)


def float_data(x):
    """The data of ``x`` as floating point (integer inputs become the default float dtype)."""
    d = x._data
    if d.dtype.kind == "f":
        return d
    return _cast(d, dtypes.get_default_dtype().np)


def to_tensor(x, like=None):
    """Wraps numbers and arrays as tensors (used where an op needs a Tensor operand)."""
    if isinstance(x, Tensor):
        return x
    if isinstance(x, float) and like is not None and like._data.dtype.kind == "f":
        return _make(np.asarray(x, dtype=like._data.dtype))
    from ..creation import tensor
    return tensor(x)
