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

Along a chain of such nodes (each one's gradient goes to the next and nowhere else, and the engine
would run them one after another anyway), the arrays go from formula to formula without a Tensor
or a trip through the engine in between: ``run`` given the pass's state (``chain``).
"""
from . import node as _node
from .grad_mode import InferenceCounter
from ._tensor import Tensor, _inference, _make, _new
from .node import NeedsTensors, raw_call  # noqa: F401  (NeedsTensors: raised by ops from here)
from .node_saved import _check_saved, saved_map
from .ops.base import np
from .ops.zerotensor import made as zeros_made
from .ops.pointwise import AddBackward0
from .saved_tensor import SavedTensor, ever_packed, last_write

_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)
_ndarray, _asarray = np.ndarray, np.asarray
_f64, _f32 = np.float64, np.float32  # NumPy scalars' classes (0-dim gradients between chained nodes)
_node._zeros_made = zeros_made  # what Node.saved's reader of NumPy data checks


def run(node, grads, chain=None):
    """``node._apply(grads)`` on NumPy data; with ``chain``, then on along a chain of nodes.

    The chain: while the one gradient a node hands on goes to a node that the engine would run
    next anyway (one edge in, the latest sequence number of the ready ones, not an input of
    ``grad``) and that runs nothing but its formula (no hooks; a NumPy formula or AddBackward0's
    pass-through), that node runs here too, on the array: no Tensor is made for the gradients
    between them and none goes through the engine's buffers, so W1's chain of 1000 ops is one
    call. The engine asks for it only when nothing watches the pass (the step-through view's
    listener) and no node waits to run before ``node``. One function for both, with the formula's
    call inline: in Pyodide each Python call costs twice as much.

    Args:
        node (Node): a one-output node with ``numpy_formula``, the next to run.
        grads (list of Tensor): its output gradient, not None.
        chain (tuple, optional): the pass's ``(deps, needed, capture_nodes, ready, keep_graph)``
            (``run_backward``'s). Without ``keep_graph`` (``retain_graph``), each node run here
            before the last is marked freed, as the engine frees the last.

    Returns:
        list or None: one Tensor (or None) per input edge, as ``_apply`` returns them; None when
        the node must run on Tensors instead. With ``chain``: ``(the last node run, that)``.
    """
    g = grads[0]
    if g.__class__ is not Tensor or (zeros_made[0] and "_zerotensor" in g.__dict__):
        return None if chain is None else (node, None)
    d = g._data
    dtype = d.dtype
    if dtype is not _F64 and dtype is not _F32 and dtype.kind != "f":
        return None if chain is None else (node, None)
    nd = d.ndim
    if nd > 1 and not d.flags.c_contiguous:
        return None if chain is None else (node, None)
    arg = d if nd else d[()]
    first = node
    deps = None  # the pass's state, unpacked when the chain may go on
    # no formula starts another (hooks run outside them), so no outer call's raw_call is to be
    # restored: it names the running node, and raw_call[1] the gradient's dtype, set where it changes
    raw_call[1] = dtype
    go_on = chain is not None and not node._hooks  # (a later node has none: it is not _special)
    try:
        while True:
            if node.__class__ is AddBackward0:  # (only ever after the first)
                out = (arg, arg)
            else:
                saved = node._vars
                if saved:
                    if node._freed:  # _apply raises the freed-graph error as the formula on Tensors would
                        out = None
                        break
                    # PyTorch unpacks (and checks) every saved tensor first, read or not: _check_saved,
                    # whose work is this loop for unchanged saved tensors of a live node; none can have
                    # changed unless something was written in place since the node was made (last_write)
                    if node._seq < last_write[0]:
                        for value in saved_map(node).values():
                            if value.__class__ is not SavedTensor or value.counter[0] != value.version:
                                cls = value.__class__
                                if cls is float or cls is int or cls is bool:
                                    continue  # a number: nothing to check
                                _check_saved(node)
                                break
                raw_call[0] = node
                try:
                    out = node.backward(arg)
                except NeedsTensors:
                    out = None
                if out is None:  # (a value Node.saved cannot hand out as data): on Tensors
                    break
            if not go_on or node._input_meta is not None:
                break  # the engine validates these gradients
            # Where the gradient goes: the one edge, or a binary op's one edge that leads anywhere.
            # (Unpacking checks the lengths: len() is a call, dear in Pyodide, on every node.)
            try:
                if out.__class__ is tuple:
                    (edge, other_edge), (o, other) = node._next_functions, out
                    nxt = edge[0]
                    if other_edge[0] is not None:
                        if nxt is not None:
                            break
                        nxt, o = other_edge[0], other
                else:
                    ((nxt, _),) = node._next_functions
                    o = out
            except ValueError:
                break
            if nxt is None or nxt._special:
                break
            if deps is None:
                deps, needed, capture_nodes, ready, keep_graph = chain
                top = ready[0][0] if ready else None  # the first in the ready queue (none go in meanwhile)
                plain = needed is None and not capture_nodes and top is None
            if deps[nxt] != 1 or not plain and ((needed is not None and nxt not in needed) or
                                                (capture_nodes and nxt in capture_nodes) or
                                                (top is not None and -nxt._seq >= top)):
                break
            if nxt.__class__ is AddBackward0:
                if nxt.alpha != 1:
                    break
            elif not nxt.numpy_formula:
                break
            if o is arg and node is first:
                break  # the gradient handed on as it is stays its Tensor (as grad() returns it: PyTorch's)
            cls = o.__class__
            if cls is _ndarray:
                nd = o.ndim
                if nd > 1 and not o.flags.c_contiguous:
                    break
                if o.dtype is not dtype:
                    if o.dtype.kind != "f":
                        break
                    dtype = raw_call[1] = o.dtype
                if not nd:
                    o = o[()]
            elif cls is _f64 or cls is _f32:
                if o.dtype is not dtype:
                    dtype = raw_call[1] = o.dtype
            else:
                break  # a Tensor, None or a Python number: the engine's way
            if not keep_graph and node._vars is not None:  # as the engine frees a node it ran
                node._freed = True
                if ever_packed[0]:
                    node._release()
            node, arg = nxt, o
    finally:
        raw_call[0] = None
    if out is None:
        # on Tensors: the engine runs the first node itself; a later one's gradient becomes a Tensor
        if node is first:
            return None if chain is None else (node, None)
        return node, node._apply([_make(arg)])
    # The result as _apply returns it: a list of Tensors (or None); the gradient handed on as it is
    # stays its Tensor ``g`` (the first node's; a later node's gradient is an array here, and
    # _tensors makes it a Tensor). A node's usual results inline (_make's body): one
    # array, or a binary op's two (once per node).
    if node is not first:
        return node, _tensors(out, arg, None)
    if type(out) is not tuple:
        if out is arg or out.__class__ is Tensor:
            result = [g if out is arg else out]
        else:
            t = _new(Tensor)
            t._data = out if out.__class__ is _ndarray else _asarray(out)
            t._version_counter = [0] if not _inference[0] else InferenceCounter((0,))
            result = [t]
        return result if chain is None else (node, result)
    if len(out) != 2:
        result = _tensors(out, arg, g)
        return result if chain is None else (node, result)
    a, b = out
    if a is None or a is arg or a.__class__ is Tensor:
        ra = None if a is None else g if a is arg else a
    else:
        ra = _new(Tensor)
        ra._data = a if a.__class__ is _ndarray else _asarray(a)
        ra._version_counter = [0] if not _inference[0] else InferenceCounter((0,))
    if b is None or b is a:
        result = [ra, None if b is None else ra]
    elif b is arg or b.__class__ is Tensor:
        result = [ra, g if b is arg else b]
    else:
        rb = _new(Tensor)
        rb._data = b if b.__class__ is _ndarray else _asarray(b)
        rb._version_counter = [0] if not _inference[0] else InferenceCounter((0,))
        result = [ra, rb]
    return result if chain is None else (node, result)


def _tensors(out, arg, g):
    """A formula's result on NumPy data as ``_apply`` returns it: a list of Tensors (or None). The
    gradient ``arg`` handed on as it is stays its Tensor ``g`` (given None: a new one)."""
    if type(out) is not tuple:
        if out is arg:
            return [g if g is not None else _make(arg)]
        return [out if out.__class__ is Tensor else _make(out)]
    if len(out) == 2:  # most nodes with a tuple: a binary op's two gradients
        a, b = out
        if a is None or a.__class__ is Tensor:
            ra = a
        elif a is arg:
            ra = g if g is not None else _make(arg)
        else:
            ra = _make(a)
        if b is None or b is a:
            return [ra, None if b is None else ra]
        if b.__class__ is Tensor:
            return [ra, b]
        if b is arg:
            return [ra, g if g is not None else _make(arg)]
        return [ra, _make(b)]
    result = []
    for i, o in enumerate(out):
        if o is None:
            result.append(None)
        elif o is arg and g is not None:
            result.append(g)  # handed on as is: the same tensor, as on the Tensor path
        else:
            for j in range(i):
                if out[j] is o:
                    result.append(result[j])
                    break
            else:
                result.append(o if o.__class__ is Tensor else _make(o))
    return result
