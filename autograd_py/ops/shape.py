"""Shape primitives: views, expand/sum_to; squeeze/unsqueeze live in ``squeezes``, transposes and
permutations in ``transposes``, both re-exported here, where callers look.

``sum_to`` is the single place where a broadcast gradient is summed back to an input's shape.
"""
import weakref

from .. import forward_mode
from ..node import Node
from .._tensor import _wrap_dim
from .base import Tensor, _make, _stale_first, as_view, batch_ndim, batched, grad_on, np, record
from . import zerotensor
from .zerotensor import made as zeros_made


def _sizes(args):
    """Accepts ``f(2, 3)``, ``f((2, 3))`` and ``f([2, 3])``."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = args[0]
    return tuple(int(a) for a in args)


def _infer(shape, numel):
    shape = list(shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape[shape.index(-1)] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return tuple(shape)


def _view_chain(out, base, fn, np_fn):
    """Records how ``out`` is read from the root base, so an in-place op on ``out`` can rebase it."""
    as_view(out, base)
    if forward_mode.levels:
        out._fw_step = fn  # the view's JVP takes the same view of the tangent (view_jvp)
    if zeros_made[0]:
        zerotensor.view(out, base)
    attrs = base.__dict__
    prev_fn, prev_np = attrs.get("_view_fn"), attrs.get("_np_view_fn")
    if prev_fn is None:
        out._view_fn, out._np_view_fn = fn, np_fn
    else:
        out._view_fn = lambda t: fn(prev_fn(t))
        out._np_view_fn = lambda a: np_fn(prev_np(a))
    # The root base remembers its views (weakly), so an in-place write can refresh their history.
    root = out._base
    views = root.__dict__.get("_views")
    if views is None:
        views = root._views = []
    elif len(views) >= 64 and not len(views) & (len(views) - 1):
        views[:] = [r for r in views if r() is not None]
    views.append(weakref.ref(out))
    return out


def view_jvp(node, tangents, inputs, result):
    """A view op's JVP: the same view of the input's tangent, sharing its memory as PyTorch's (a
    write into the view's tangent reaches the base's). Multi-output views (unbind, split) give one
    per output."""
    t = tangents[0]
    if isinstance(result, (tuple, list)):
        return tuple(_step(t, o) for o in result)
    return _step(t, result)


def _step(t, out):
    step = out.__dict__.get("_fw_step")
    if step is not None:
        try:
            return step(t)
        except RuntimeError:  # a tangent laid out apart from its primal: .view may refuse it
            pass
    return reshape(t, out._data.shape)


# ---------------------------------------------------------------------------- sum_to / expand
def sum_to(input, shape):
    """Sums a gradient down to ``shape`` (the reverse of broadcasting); batch dims are kept.

    Raises ValueError when ``shape`` does not broadcast to the gradient's shape.
    """
    nb = batch_ndim[0]
    full = input._data.shape
    src, target = full[nb:], tuple(shape)
    if src == target:
        return input
    lead = len(src) - len(target)
    if lead < 0:
        raise ValueError("cannot sum to a larger shape")
    from .reduction import sum
    if not target and not nb:
        return sum(input)  # PyTorch's sum_to: a 0-dim target is a full sum (SumBackward0), no view
    dims = [nb + i for i in range(lead)]
    for i, s in enumerate(target):
        if s == 1 and src[i + lead] != 1:
            dims.append(nb + i + lead)
        elif s != src[i + lead] and s != 1:
            raise ValueError("not broadcastable")
    out = sum(input, tuple(dims), keepdim=True) if dims else input
    final = full[:nb] + target
    return reshape(out, final) if out._data.shape != final else out


class ExpandBackward0(Node):
    numpy_formula = True
    jvp = view_jvp
    fw_view = True
    keeps = ("self_sym_sizes",)

    def backward(self, grad):
        if grad.__class__ is not Tensor and not isinstance(grad, Tensor):  # NumPy data (numpy_backward)
            return _sum_to_data(np.asarray(grad), self.shape)
        if not self.shape and not batch_ndim[0]:
            from .reduction import sum
            return sum(grad)  # PyTorch's sum_to sums into a 0-dim shape even from a 0-dim gradient
        return sum_to(grad, self.shape)  # the one un-broadcast, shared with the engine


def expand(input, *sizes):
    sizes = _sizes(sizes)
    src = input._data.shape
    if len(sizes) < len(src):
        _stale_first(input)  # PyTorch reads the input's grad_fn before the kernel's checks
        # PyTorch names the tensor by its legacy type, except bool, which has none (CPUBoolType)
        kind = "CPUBoolType" if input.dtype.name == "bool" else "torch." + input.dtype.legacy_name
        raise RuntimeError(
            f"expand({kind}{{{list(src)}}}, size={list(sizes)}): the number of sizes provided "
            f"({len(sizes)}) must be greater or equal to the number of dimensions in the tensor ({len(src)})")
    lead = len(sizes) - len(src)
    target = tuple(src[i - lead] if (s == -1 and i >= lead) else s for i, s in enumerate(sizes))
    try:
        data = _expanded(input._data, target)
    except ValueError:
        _stale_first(input)
        # PyTorch names the first mismatch from the right.
        dim = next(i for i in range(len(target) - 1, lead - 1, -1)
                   if src[i - lead] != 1 and src[i - lead] != target[i])
        raise RuntimeError(
            f"The expanded size of the tensor ({target[dim]}) must match the existing size ({src[dim - lead]}) "
            f"at non-singleton dimension {dim}.  Target sizes: {list(sizes)}.  Tensor sizes: "
            f"{list(src)}") from None
    return _expand_view(input, data, target)


def _expand_view(input, data, target):
    """The view ``expand`` makes of ``input`` (``data``, its array broadcast to ``target``), recorded."""
    out = _view_chain(_make(data), input, lambda x: expand(x, target), lambda a: _expanded(a, target))
    if grad_on(input):
        node = ExpandBackward0()
        node.shape = input._data.shape
        record(out, node, (input,))
    return out


def expand_scalar(input, shape):
    """``expand(input, shape)`` for a full reduction's backward: a 0-dim ``input`` and ``shape``, a
    tuple of sizes (the reduced input's), made as ``_expanded_contiguous`` makes it without parsing
    the sizes (a microsecond of W5's two passes); anything else goes to ``expand``."""
    a = input._data
    if a.ndim or shape.__class__ is not tuple or 0 in shape or a.dtype.hasobject:
        return expand(input, shape)
    return _expand_view(input, np.ndarray(shape, a.dtype, a, 0, (0,) * len(shape)), shape)


def _expanded(a, shape):
    """``a`` broadcast to ``shape`` as a view PyTorch can write through (its stride-0 dims repeat an
    element: fill_ and zero_ may write there, other in-place ops refuse the internal overlap)."""
    fast = _expanded_contiguous(a, shape)
    if fast is not None:
        return fast
    b = np.broadcast_to(a, shape)
    if not b.size:
        return b
    # A dim that keeps its size keeps its stride (NumPy zeroes every size-1 one; PyTorch's
    # stride checks, such as matmul's fold, see the difference).
    lead = len(shape) - a.ndim
    strides = tuple(a.strides[i - lead] if i >= lead and a.shape[i - lead] == n else 0
                    for i, n in enumerate(shape))
    return np.lib.stride_tricks.as_strided(a, shape, strides)


def _expanded_contiguous(a, shape):
    """``_expanded`` of a C-contiguous array to a non-empty shape it broadcasts to, built on its
    buffer directly (NumPy's broadcast_to and as_strided cost several microseconds of Python each):
    None otherwise."""
    if not a.flags.c_contiguous or a.dtype.hasobject:
        return None
    lead = len(shape) - a.ndim
    if lead < 0:
        return None
    strides = [0] * lead
    for i, n in enumerate(shape):
        if n <= 0:
            return None
        if i >= lead:
            s = a.shape[i - lead]
            if s == n:
                strides.append(a.strides[i - lead])
            elif s == 1:
                strides.append(0)
            else:
                return None
    return np.ndarray(shape, a.dtype, a, 0, strides)


def view_indices(base_shape, np_view_fn):
    """The flat index into a base of ``base_shape`` that each element of a view reads."""
    return np_view_fn(np.arange(int(np.prod(base_shape))).reshape(base_shape))


def expand_as(input, other):
    return expand(input, other._data.shape)


def broadcast_to(input, shape):
    return expand(input, shape)


# ---------------------------------------------------------------------------- views
class ViewBackward0(Node):
    jvp = view_jvp
    fw_view = True
    keeps = ("self_sym_sizes",)

    def backward(self, grad):
        return reshape(grad, batched(grad, self.shape))


class UnsafeViewBackward0(Node):
    """``_unsafe_view``: a reshape whose result is no view (no ``_base``, its own version counter),
    ending reshape's copy of a tensor whose strides allow no view and matmul's folded mm/bmm. Its
    tangent is the input's tangent _unsafe_view'ed as it is (auto_linear), sharing its memory."""
    fw_alias = True
    keeps = ("self_sym_sizes",)

    def jvp(self, tangents, inputs, result):
        return _unsafe_view(tangents[0], result._data.shape)

    def backward(self, grad):
        return reshape(grad, batched(grad, self.shape))


class ReshapeAliasBackward0(ViewBackward0):
    """reshape of a non-contiguous tensor whose strides allow a view (PyTorch's _reshape_alias)."""


def view(input, *shape):
    if len(shape) == 1 and not isinstance(shape[0], (tuple, list, int)) and hasattr(shape[0], "np"):
        from .pointwise import to_dtype
        return to_dtype(input, shape[0].np)
    try:
        shape = _infer(_sizes(shape), input._data.size)
        data = input._data.view()
        try:
            data.shape = shape
        except AttributeError:
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one dimension "
                "spans across two contiguous subspaces). Use .reshape(...) instead.") from None
    except RuntimeError:
        _stale_first(input)  # PyTorch reads the input's grad_fn before the kernel's checks
        raise
    return _record_view(input, data, shape)


def _record_view(input, data, shape, cls=ViewBackward0):
    out = _view_chain(_make(data), input, lambda t: view(t, shape), lambda a: a.reshape(shape))
    if grad_on(input):
        node = cls()
        node.shape = input._data.shape
        record(out, node, (input,))
    return out


def reshape(input, *shape):
    if input.__class__ is np.ndarray:
        return input.reshape(_infer(_sizes(shape), input.size))  # a formula on NumPy data (numpy_backward)
    shape = _infer(_sizes(shape), input._data.size)
    data = input._data.view()
    try:
        data.shape = shape
    except AttributeError:
        from .pointwise import clone
        return _unsafe_view(clone(input), shape)
    return _record_view(input, data, shape,
                        ViewBackward0 if input._data.flags.c_contiguous else ReshapeAliasBackward0)


def _unsafe_view(input, shape):
    """PyTorch's ``_unsafe_view``: ``input`` reshaped to ``shape`` (which its strides must allow)
    as a new tensor rather than a view, for an ``input`` no one else holds (a fresh copy or mm's
    result), so an in-place op on the result needs no view bookkeeping."""
    out = _make(input._data.reshape(shape))
    if grad_on(input):
        node = UnsafeViewBackward0()
        node.shape = input._data.shape
        record(out, node, (input,))
    return out


def view_as(input, other):
    return view(input, other._data.shape)


def reshape_as(input, other):
    return reshape(input, other._data.shape)


def flatten(input, start_dim=0, end_dim=-1):
    nd = input._data.ndim
    if nd == 0:
        return reshape(input, 1)
    s, e = _wrap_dim(start_dim, nd), _wrap_dim(end_dim, nd)
    if s == e:
        return input
    shape = input._data.shape
    return reshape(input, shape[:s] + (-1,) + shape[e + 1:])


def contiguous(input, memory_format=None):
    if input._data.flags.c_contiguous:
        return input
    from .pointwise import clone
    out = clone(input)
    out._data = np.ascontiguousarray(out._data)
    return out


def _sum_to_data(data, shape):
    # unbroadcast imports this module: looked up when a formula runs
    from .unbroadcast import sum_to_data
    out = sum_to_data(data, shape)
    if out is None:
        from ..numpy_backward import NeedsTensors
        raise NeedsTensors  # PyTorch's error comes from the Tensor path
    return out


# Squeezes, transposes and permutations (they build on _view_chain above): re-exported, where
# callers look.
from .squeezes import SqueezeBackward0, SqueezeBackward1, SqueezeBackward4, UnsqueezeBackward0  # noqa: E402,F401
from .squeezes import _unsqueezed, squeeze, unsqueeze  # noqa: E402,F401
from .transposes import (H, PermuteBackward0, T, TBackward0, TransposeBackward0, mH, moveaxis,  # noqa: E402,F401
                         movedim, mT, permute, swapaxes, swapdims, t, transpose)
