"""Where on the graph an autograd error belongs, for the views to mark it.

Every autograd error that has a place in the graph is told apart here, from PyTorch's message
and the traceback, as plain JSON (``failed_node``): the node or tensor to mark, the error's
``kind``, what the explanation needs (``detail``) and the ``stage`` it was raised at, which says
how the step-through ends:

- ``freed``: a backward through a graph whose saved tensors were freed; the freed node.
- ``version``: a saved tensor modified in place since it was saved; the node that saved it.
- ``leaf_inplace``: an in-place op on a leaf that requires grad (or a view of one); the leaf.
- ``nonscalar``: ``backward()`` of a non-scalar with no gradient; the output.
- ``unused``: ``autograd.grad`` of an input the outputs do not depend on; that input.
- ``raised``: any other error raised by a node's backward (a custom Function's, say); the node.

Any other error of a backward call has no place on the graph, but still ends the step-through
(``backward_error``).
"""
import heapq

from . import graph
from ..node import Node
from .._tensor import Tensor

FREED_MARK = "backward through the graph a second time"
VERSION_MARK = "modified by an inplace operation"
LEAF_MARKS = ("leaf Variable that requires grad is being used in an in-place operation",
              "leaf Variable that requires grad has been used in an in-place operation")
NONSCALAR_MARK = "grad can be implicitly created only for scalar outputs"
UNUSED_MARK = "appears to not have been used in the graph"

# When each kind is raised: "during" a pass (at a node), "after" it (the engine ran), "before"
# it (nothing ran), or in "forward" code (no backward at all).
STAGES = {"freed": "during", "version": "during", "leaf_inplace": "forward", "nonscalar": "before",
          "unused": "after", "raised": "during"}


def raising_node(exc, freed=True):
    """The node whose backward raised ``exc``: the innermost traceback frame working for one (a
    freed one when ``freed``).

    A frame works for the node that is its ``self`` (a Node's method), or its ``node`` (the
    engine's loop, and the functions that run a node's formula on NumPy data, numpy_backward).
    """
    found = None
    tb = exc.__traceback__
    while tb is not None:
        frame_locals = tb.tb_frame.f_locals
        for owner in (frame_locals.get("self"), frame_locals.get("node")):
            if isinstance(owner, Node) and (owner._freed or not freed):
                found = owner
                break
        tb = tb.tb_next
    return found


def first_freed_node(roots):
    """The first freed node the engine would reach from ``roots``, in its order (newest first)."""
    ready = [(-n._seq, id(n), n) for n in roots if n is not None]
    heapq.heapify(ready)
    seen = {id(n) for _, _, n in ready}
    while ready:
        node = heapq.heappop(ready)[2]
        if node._freed:
            return node
        for nxt, _ in node.next_functions:
            if nxt is not None and id(nxt) not in seen:
                seen.add(id(nxt))
                heapq.heappush(ready, (-nxt._seq, id(nxt), nxt))
    return None


def _innermost_locals(exc):
    tb = exc.__traceback__
    if tb is None:
        return {}
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_locals


def _tensor_mark(tensor, namespace, kind, **detail):
    """The mark for an error about ``tensor``: its node when a name shows it on the graph, else
    its grad_fn's (drawn when a named tensor's graph reaches it)."""
    names = [name for name, t in graph.named_tensors(namespace) if t is tensor]
    if names or tensor._grad_fn is None:
        node_id = f"t{id(tensor)}"
    else:
        node_id = f"f{id(tensor._grad_fn)}"
    return {"id": node_id, "name": ", ".join(names) if names else None, "how": "traceback", "kind": kind,
            "stage": STAGES[kind], "detail": {"tensor": names[0] if names else None, **detail}}


def _node_mark(node, how, kind):
    return {"id": f"f{id(node)}", "name": type(node).__name__, "how": how, "kind": kind, "stage": STAGES[kind]}


def _backward_stage(exc):
    """``("during", node the engine was running)`` when ``exc`` came out of the engine's pass,
    ``("before", None)`` when out of a backward call before its pass began, else ``(None, None)``."""
    from .. import engine
    from ..autograd import api

    calls = {api.backward.__code__, api.grad.__code__, Tensor.backward.__code__}
    stage = None
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code is engine.run_backward.__code__:
            node = tb.tb_frame.f_locals.get("node")
            return "during", node if isinstance(node, Node) else None
        if code in calls:
            stage = "before"
        tb = tb.tb_next
    return stage, None


def backward_error(exc):
    """What the step-through shows for an error of a backward call that has no place on the graph
    (a hook that raised, a root that does not require grad), or None.

    Returns:
        dict or None: ``{"id": None, "name", "kind": "other", "stage"}``, ``name`` the error's type.
    """
    stage = _backward_stage(exc)[0]
    if stage is None:
        return None
    return {"id": None, "name": type(exc).__name__, "how": "traceback", "kind": "other", "stage": stage}


def failed_node(exc, namespace, recorder=None):
    """Which node or tensor of the graph an autograd error belongs to, or None.

    Args:
        exc (BaseException): the error that ended a command.
        namespace (dict): the session's names (the graph the page draws).
        recorder (PassRecorder, optional): the command's passes; for a freed graph whose
            traceback names no node, the first freed node on the path from the failed pass's
            roots is taken.

    Returns:
        dict or None: ``{"id", "name", "how", "kind", "stage"}`` and, for the errors about a
        tensor (``leaf_inplace``, ``nonscalar``, ``unused``), ``detail``: the tensor's name (None
        when no name holds it) and ``view`` (an in-place op on a view of the leaf), ``shape``
        (the non-scalar output's) or ``index`` (the unused input's, in ``inputs``).
    """
    if not isinstance(exc, Exception):
        return None
    message = str(exc) if isinstance(exc, RuntimeError) else ""
    if VERSION_MARK in message:
        node = raising_node(exc, freed=False)
        return None if node is None else _node_mark(node, "traceback", "version")
    if FREED_MARK in message:
        node, how = raising_node(exc), "traceback"
        if node is None and recorder is not None:
            from .views import reachable_nodes

            known = reachable_nodes(namespace, recorder.edge_nodes())
            node, how = first_freed_node([known.get(r) for r in recorder.roots]), "path"
        return None if node is None else _node_mark(node, how, "freed")
    found = _innermost_locals(exc)
    if any(mark in message for mark in LEAF_MARKS):
        t = found.get("t")
        if not isinstance(t, Tensor):
            return None
        view = "a view of a leaf" in message and t._base is not None
        return _tensor_mark(t._base if view else t, namespace, "leaf_inplace", view=view)
    if NONSCALAR_MARK in message:
        out = found.get("out")
        if not isinstance(out, Tensor):
            return None
        return _tensor_mark(out, namespace, "nonscalar", shape=list(out._data.shape))
    if UNUSED_MARK in message:
        inputs, i = found.get("inputs"), found.get("i")
        if not isinstance(i, int) or not isinstance(inputs, (tuple, list)) or not 0 <= i < len(inputs):
            return None
        if not isinstance(inputs[i], Tensor):
            return None
        return _tensor_mark(inputs[i], namespace, "unused", index=i)
    stage, running = _backward_stage(exc)
    if stage == "during":  # the node whose backward raised, else the one the engine was running
        node = raising_node(exc, freed=False) or running
        return None if node is None else _node_mark(node, "traceback", "raised")
    return None
