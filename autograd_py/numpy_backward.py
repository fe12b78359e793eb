"""Backward formulas run on NumPy data when no graph is being recorded, as HIPS autograd's are.

A node class with ``numpy_formula = True`` writes its ``backward`` in operators and in ops that
also take NumPy arrays (``cos``, ``mul_scalar``, ``tanh_backward``, ...), so the one formula serves
both modes: on Tensors under ``create_graph=True``, where it records the higher-order graph, and
otherwise on the gradients' and saved tensors' arrays, without a Tensor per intermediate value.
A 0-dim value goes in as a NumPy scalar, whose arithmetic costs a fraction of an array's.

The results are the same: every value has the gradient's floating dtype (NumPy would promote a
float32 gradient against a float64 0-dim tensor, where PyTorch keeps float32) and a layout NumPy
keeps as TensorIterator does (contiguous, or at most one dim). Anything else (a Tensor subclass,
saved-tensor hooks, another dtype, a transposed array, a list of tensors) makes ``Node.saved`` raise
:class:`NeedsTensors`, and the node then runs on Tensors as before. So does an efficient zero
tensor (``ops/zerotensor``) as the gradient or a saved input: its own kernels give zeros where
arrays of zeros would give NaN against inf. Only the node that meets one steps aside, so a
forward-mode lesson earlier in the same process costs later backward passes nothing.
Nodes that hand the gradient on as it is (AddBackward0, CloneBackward0) gain nothing here and
stay on Tensors.
"""
from . import node as _node
from .grad_mode import InferenceCounter
from ._tensor import Tensor, _inference, _make, _new
from .node import NeedsTensors, raw_call  # noqa: F401  (NeedsTensors: raised by ops from here)
from .node_saved import _check_saved
from .ops.base import np
from .ops.zerotensor import made as zeros_made
from .saved_tensor import SavedTensor

_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)
_ndarray, _asarray = np.ndarray, np.asarray
_node._zeros_made = zeros_made  # what Node.saved's reader of NumPy data checks


def run(node, grads):
    """``node._apply(grads)`` on NumPy data; None when the node must run on Tensors instead.

    Args:
        node (Node): a one-output node with ``numpy_formula``.
        grads (list of Tensor): its output gradient, not None.

    Returns:
        list or None: one Tensor (or None) per input edge, as ``_apply`` returns them.
    """
    g = grads[0]
    if g.__class__ is not Tensor or (zeros_made[0] and "_zerotensor" in g.__dict__):
        return None
    d = g._data
    dtype = d.dtype
    if dtype is not _F64 and dtype is not _F32 and dtype.kind != "f":
        return None
    nd = d.ndim
    if nd > 1 and not d.flags.c_contiguous:
        return None
    saved = node._vars
    if saved:
        if node._freed:
            return None  # _apply raises the freed-graph error as the formula on Tensors would (Node.saved relies on this)
        # PyTorch unpacks (and checks) every saved tensor first, read or not: _check_saved, whose
        # work is this loop for unchanged saved tensors of a live node
        for value in saved.values():
            if value.__class__ is not SavedTensor or value.counter[0] != value.version:
                cls = value.__class__
                if cls is float or cls is int or cls is bool:
                    continue  # a number: nothing to check
                _check_saved(node)
                break
    arg = d if nd else d[()]
    # no formula starts another (hooks run outside them), so there is no outer call to restore
    raw_call[0], raw_call[1] = node, dtype
    try:
        out = node.backward(arg)
    except NeedsTensors:
        return None
    finally:
        raw_call[0] = None
    if type(out) is not tuple:
        if out is None or out is arg or out.__class__ is Tensor:
            return None if out is None else [g if out is arg else out]
        # _make's body (one call less for the most common result, one array)
        t = _new(Tensor)
        t._data = out if out.__class__ is _ndarray else _asarray(out)
        t._version_counter = [0] if not _inference[0] else InferenceCounter((0,))
        return [t]
    if len(out) == 2:  # most nodes with a tuple: a binary op's two gradients
        a, b = out
        if a is None or a is arg or a.__class__ is Tensor:
            ra = None if a is None else g if a is arg else a
        else:  # _make's body, as above
            ra = _new(Tensor)
            ra._data = a if a.__class__ is _ndarray else _asarray(a)
            ra._version_counter = [0] if not _inference[0] else InferenceCounter((0,))
        if b is None or b is a:
            return [ra, None if b is None else ra]
        if b is arg or b.__class__ is Tensor:
            return [ra, g if b is arg else b]
        rb = _new(Tensor)
        rb._data = b if b.__class__ is _ndarray else _asarray(b)
        rb._version_counter = [0] if not _inference[0] else InferenceCounter((0,))
        return [ra, rb]
    result = []
    for i, o in enumerate(out):
        if o is None:
            result.append(None)
        elif o is arg:
            result.append(g)  # handed on as is: the same tensor, as on the Tensor path
        else:
            for j in range(i):
                if out[j] is o:
                    result.append(result[j])
                    break
            else:
                result.append(o if o.__class__ is Tensor else _make(o))
    return result

