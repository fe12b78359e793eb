"""``AccumulateGrad``, the node at a leaf, and PyTorch's layout contract for the ``.grad`` it stores."""
import sys
import warnings

from . import _tensor, grad_mode  # _tensor is still loading when this module is: read at call time
from .node import Node


class AccumulateGrad(Node):
    """The node at a leaf: adds the incoming gradient into ``variable.grad``."""

    __slots__ = ("variable", "_post_hooks", "shape")
    _special = True  # the engine's rare path: it accumulates instead of handing gradients on

    def __init__(self, variable):
        super().__init__()
        self._seq = float("inf")  # leaves accumulate as soon as they are ready, as in PyTorch
        self.variable = variable
        self.shape = variable._data.shape  # the input metadata gradients are checked against
        self._next_functions = ()
        self._input_meta = ()
        self._post_hooks = None

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def _apply(self, grads):
        grad = grads[0]
        var = self.variable
        if var is None or grad is None:
            return []
        if var._grad is None:
            # A fresh copy, so that two leaves fed by one AddBackward never share a buffer that a
            # later in-place accumulation would then change for both; under create_graph keep the graph.
            # A gradient that does not obey the leaf's layout is copied into the leaf's sizes and
            # strides (clone_obey_contract), which differ after an in-place view op such as unsqueeze_.
            if grad_mode._state[0]:
                fresh = grad._detached_copy()
                if fresh._data.shape != var._data.shape:
                    fresh = _copy_into_shape(fresh, var._data.shape)
                # PyTorch copies into a fresh buffer, so the graph shows CopyBackwards.
                from .ops.inplace import copy_
                var._grad = copy_(fresh, grad)
            elif _refs(grad) <= _STEAL_REFS and _obeys_layout_contract(grad._data, var._data):
                # PyTorch keeps the gradient itself (nothing else holds it): its version shows. Its
                # array too, unless another tensor sees that memory (a view, a detached alias).
                data = grad._data
                if data.base is not None or _refs(data) > _SOLE_ARRAY_REFS:
                    data = data.copy(order="K")
                kept = _tensor._make(data)
                kept._version_counter[0] = grad._version_counter[0]
                if "_zerotensor" in grad.__dict__:
                    kept._zerotensor = True  # the efficient zero tensor itself
                var._grad = kept
            else:
                var._grad = _clone_obey_contract(grad, var)
        elif grad_mode._state[0]:
            var._grad = var._grad + grad
        else:
            if "_zerotensor" in var._grad.__dict__:
                raise RuntimeError(ZEROTENSOR_IMMUTABLE)
            var._grad._accumulate_(grad)
            _check_layout(var._grad, var)
        if self._post_hooks:
            for fn in list(self._post_hooks.values()):
                fn(var)
        return []


def _obeys_layout_contract(g, v):
    """PyTorch's obeys_layout_contract: may a gradient be stored as is for a leaf (stride by stride
    over the gradient's dims; past the leaf's dims it does not look)."""
    if not g.ndim and not v.ndim:
        return True  # 0-dim: no strides to compare
    if g.size and g.flags.c_contiguous and v.flags.c_contiguous and g.shape == v.shape and 0 not in g.strides:
        return True  # the common case, without the stride walk (NumPy ignores size-1 dims' strides)
    from ._tensor import torch_strides
    vs = torch_strides(v)
    if not _dense(v.shape, vs):
        return bool(g.flags.c_contiguous)
    gs = torch_strides(g)
    for i, n in enumerate(g.shape):
        if (n != 1 and i < len(vs) and gs[i] != vs[i]) or (n == 1 and gs[i] == 0):
            return False
    return True


def _dense(shape, strides):
    """PyTorch's is_non_overlapping_and_dense, on its strides."""
    if len(shape) == 1:
        return shape[0] < 2 or strides[0] == 1
    expected = 1
    for stride, size in sorted((s, n) for s, n in zip(strides, shape) if n > 1):
        if stride != expected:
            return False
        expected *= size
    return True


def _check_layout(grad, var):
    """PyTorch's CHECK_RESULT after adding into an existing ``.grad``: warn when the two strides
    disagree (a leaf reshaped in place between backward calls, say)."""
    g, v = grad._data, var._data
    if _obeys_layout_contract(g, v):
        return
    from ._tensor import torch_strides
    from ._warn import _always, _seen
    if _always[0] or _check_layout not in _seen:
        _seen.add(_check_layout)  # TORCH_WARN_ONCE: once per process, whatever the sizes
        warnings.warn(
            "grad and param do not obey the gradient layout contract. This is not an error, but may impair "
            f"performance.\ngrad.sizes() = {list(g.shape)}, strides() = {list(torch_strides(g))}\n"
            f"param.sizes() = {list(v.shape)}, strides() = {list(torch_strides(v))} (Triggered internally "
            "at /__w/pytorch/pytorch/torch/csrc/autograd/functions/accumulate_grad.h:252.)", UserWarning)


ZEROTENSOR_IMMUTABLE = ("ZeroTensors are immutable. Please use the materialized zero tensor obtained using "
                        ".clone() if you want a mutable tensor.")


def _make_like(data):
    return _tensor._make(data)


def _clone_obey_contract(grad, var):
    """PyTorch's clone_obey_contract: a dense leaf gets its gradient copied into a buffer with the
    leaf's sizes and strides; otherwise a contiguous clone of the gradient."""
    import numpy as np
    from ._tensor import torch_strides
    v = var._data
    strides = torch_strides(v)
    if not _dense(v.shape, strides):
        return _make_like(np.ascontiguousarray(grad._data))
    out = _copy_into_shape(grad._detached_copy(), v.shape)
    buffer = np.empty_like(v, dtype=out._data.dtype)  # order "K": the leaf's layout
    if not v.size:  # NumPy's empty arrays have no layout: give it PyTorch's strides
        buffer = np.lib.stride_tricks.as_strided(buffer, v.shape, tuple(s * buffer.itemsize for s in strides))
    else:
        buffer[...] = out._data
    out._data = buffer
    out._version_counter[0] = 1  # new_empty_strided(...).copy_(grad)
    return out


_refs = sys.getrefcount


def _steal_refs():
    """What ``sys.getrefcount`` gives in ``AccumulateGrad._apply`` for a gradient only the engine's
    buffer holds (measured, so right for 3.11 and 3.12 alike)."""
    def probe(grads):
        grad = grads[0]
        return _refs(grad)
    return probe([object()])


_STEAL_REFS = _steal_refs()


def _sole_array_refs():
    """What ``sys.getrefcount`` gives in ``AccumulateGrad._apply`` for an array that only its
    gradient tensor holds (measured, as ``_steal_refs``)."""
    class Holder:
        pass

    def probe(grad):
        data = grad._data
        return _refs(data)
    holder = Holder()
    holder._data = object()
    return probe(holder)


_SOLE_ARRAY_REFS = _sole_array_refs()


def _copy_into_shape(t, shape):
    """``empty(shape).copy_(t)``, with PyTorch's errors when ``t`` does not broadcast to ``shape``."""
    import numpy as np
    from .ops.base import check_broadcast
    check_broadcast(shape, t._data.shape)
    full = np.broadcast_shapes(shape, t._data.shape)
    if full != tuple(shape):
        raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape {list(full)}")
    t._data = np.broadcast_to(t._data, shape).copy()
    return t
