"""The backward engine: iterative, ordered like PyTorch's, with an optional step listener.

Nothing here recurses over the graph, because Pyodide's stack is small. Ready nodes run in
PyTorch's order: a leaf's AccumulateGrad first, then the most recently created node.
"""
import heapq
import itertools
from typing import NamedTuple

from . import forward_mode, grad_mode, graph_plan, numpy_backward
from .engine_grads import _add_grads, _validate  # noqa: F401  (_validate: ops.inplace imports it from here)
from .hooks import run_post_hooks, run_pre_hooks, run_tensor_pre_hooks
from .node import AccumulateGrad, GraphRoot
from .saved_tensor import ever_packed
from .ops.base import batch_ndim
from .ops.pointwise import AddBackward0

_ROOT_NEW = object.__new__

# An optional callable receiving one dict per engine event (the step-through view uses it).
_listener = [None]


def set_listener(fn):
    """Installs ``fn(event: dict)`` to observe backward passes; ``None`` removes it. Returns the old one."""
    old = _listener[0]
    _listener[0] = fn
    return old


class GraphTask:
    """What ``torch._C._current_graph_task_id`` and ``_will_engine_execute_node`` ask about the
    running pass (``register_multi_grad_hook`` uses them)."""

    __slots__ = ("id", "deps", "needed", "captures", "accumulate")

    _ids = itertools.count()

    def __init__(self, deps, needed, captures, accumulate):
        self.id = next(GraphTask._ids)
        self.deps, self.needed, self.captures, self.accumulate = deps, needed, captures, accumulate

    def will_execute(self, node):
        if node not in self.deps:
            return False
        if self.needed is None:
            return True
        if node not in self.needed:
            return False
        if node.__class__ is AccumulateGrad and not self.accumulate and (node, 0) in self.captures:
            raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are currently "
                               "running autograd.grad(). This is currently not supported.")
        return True


# The innermost running pass (a hook may start another backward), or None; a pass puts its
# (deps, needed, captures, accumulate) here, which running_task makes a GraphTask when asked.
current_task = [None]


def running_task():
    """The innermost running pass's GraphTask (its id is taken when first asked for), or None."""
    task = current_task[0]
    if task.__class__ is tuple:
        task = current_task[0] = GraphTask(*task)
    return task


class GradientEdge(NamedTuple):
    """Where a tensor's gradient is computed (``torch.autograd.graph.get_gradient_edge``); ``grad``
    accepts one in place of the tensor."""

    node: object
    output_nr: int
    ownership_token: object = None


GradientEdge.__module__ = "torch.autograd.graph"


def gradient_edge(t):
    """The (node, output_nr) a gradient for tensor ``t`` (or a GradientEdge) flows into."""
    if t.__class__ is GradientEdge:
        return (t.node, t.output_nr)
    if t._kept_fn is not None:
        from .ops.inplace import settle
        settle(t)  # PyTorch reads grad_fn here: a regenerated view's retained grad moves to its new node
    if t._grad_fn is not None:
        return (t._grad_fn, t._output_nr)
    if t._creation_meta is not None:
        t.grad_fn  # noqa: B018  (a view whose base was written raises PyTorch's error here)
    return (t._get_accumulator(), 0)


def run_backward(roots, root_grads, keep_graph, create_graph, inputs=None, accumulate=True):
    """Runs one backward pass.

    Args:
        roots (sequence of Tensor): tensors to differentiate; each must require grad.
        root_grads (list of Tensor): their gradients, already validated.
        keep_graph (bool): keep saved tensors (``retain_graph``).
        create_graph (bool): record the backward computation for higher-order gradients.
        inputs (sequence of Tensor, optional): only these receive gradients.
        accumulate (bool): accumulate into ``.grad`` (``backward``) or return the gradients of
            ``inputs`` (``autograd.grad``).

    Returns:
        list: with ``accumulate=False``, one gradient (or None) per input.
    """
    if len(roots) == 1:
        # PyTorch's engine makes no GraphRoot for one root (skip_dummy_node), so no sequence number
        # goes to it; here it only carries the root's edge and gradient
        root = _ROOT_NEW(GraphRoot)
        root._seq, root._vars, root._input_meta = -1, None, None
        root._next_functions, root._grads = (gradient_edge(roots[0]),), root_grads
    else:
        root = GraphRoot([gradient_edge(t) for t in roots], root_grads)
    targets = None if inputs is None else (
        (gradient_edge(inputs[0]),) if len(inputs) == 1 else tuple([gradient_edge(t) for t in inputs]))
    deps, needed = graph_plan.analyse(root, targets, keep_graph)

    captures = {}
    capture_nodes = ()  # only these can capture: the others skip _capture
    if inputs is None:
        captured = []
    elif len(targets) == 1:
        captures = {targets[0]: [0]}
        capture_nodes = {targets[0][0]}
        captured = [None]
    else:
        for i, edge in enumerate(targets):
            captures.setdefault(edge, []).append(i)
        capture_nodes = {node for node, _ in captures}
        captured = [None] * len(targets)

    listener = _listener[0]
    if listener is not None:
        listener({"event": "begin", "roots": [id(n) for n, _ in root._next_functions]})

    buffers = {}
    ready = []
    tie = 0
    heappop, heappush = heapq.heappop, heapq.heappush
    prev_mode = grad_mode._state[0]
    grad_mode._state[0] = create_graph
    packed = ever_packed  # a local: read once per node
    # With no graph to record (nor tangents or batch dims to carry), formulas that allow it run on
    # NumPy data; numpy_backward.run steps aside for a node that meets an efficient zero tensor.
    numpy_pass = not create_graph and not batch_ndim[0]
    fw_levels = forward_mode.levels
    prev_task = current_task[0]
    current_task[0] = (deps, needed, captures, accumulate)  # made a GraphTask when asked (running_task)
    # The ready node that runs next (before every node in the heap: a higher seq, or the same
    # seq, a leaf's, and ready sooner) waits here, out of the heap, with its buffer, and the one
    # after it in ``second`` (set only while ``alone`` is): the three run nodes in the heap's
    # order, and a chain of single-input nodes, or a node whose newest input becomes ready, skips
    # the heap, as does the node it overtook (a sum's earlier term, W4's chains of adds).
    alone = alone_buf = second = second_buf = None
    # what numpy_backward.run needs to run on along a chain (not while the listener watches each node)
    chain = (deps, needed, capture_nodes, ready, keep_graph) if listener is None else None
    try:
        # The root hands on its gradients as the loop below hands on a node's (it has no hooks,
        # formula nor saved values to run or free).
        for (nxt, nr), g in zip(root._next_functions, root_grads):
            if needed is not None and nxt not in needed:
                continue
            left = deps[nxt]  # as in the loop below
            if left == 1 or left == -1 and nxt not in buffers:
                buf = [None] * nxt.num_outputs
                buf[nr] = g
            elif left == -1:
                buf = buffers.pop(nxt)
                if g is not None:
                    buf[nr] = g if buf[nr] is None else _add_grads(buf[nr], g, create_graph)
            else:
                if left > 0:
                    deps[nxt] = 1 - left
                    buffers[nxt] = buf = [None] * nxt.num_outputs
                    buf[nr] = g
                else:
                    deps[nxt] = left + 1
                    buf = buffers[nxt]
                    if g is not None:
                        buf[nr] = g if buf[nr] is None else _add_grads(buf[nr], g, create_graph)
                continue
            if alone is None:
                if not ready or -nxt._seq < ready[0][0]:
                    alone, alone_buf = nxt, buf
                    continue
            elif nxt._seq > alone._seq:
                # only a finite seq is overtaken (so the second's is finite too), and no other node
                # has it: the tie of the one going to the heap is immaterial
                if second is not None:
                    heappush(ready, (-second._seq, tie, second, second_buf))
                    tie += 1
                second, second_buf = alone, alone_buf
                alone, alone_buf = nxt, buf
                continue
            elif second is None:
                if not ready or -nxt._seq < ready[0][0]:
                    second, second_buf = nxt, buf
                    continue
            elif nxt._seq > second._seq:
                heappush(ready, (-second._seq, tie, second, second_buf))
                tie += 1
                second, second_buf = nxt, buf
                continue
            heappush(ready, (-nxt._seq, tie, nxt, buf))
            tie += 1
        while True:
            if alone is not None:
                node, grads = alone, alone_buf
                alone, alone_buf = second, second_buf
                second = second_buf = None
            elif ready:
                _, _, node, grads = heappop(ready)
            else:
                break
            if node._special or (capture_nodes and node in capture_nodes):
                # the rare steps, behind one flag (any hook or retain_grad, or a leaf's accumulator)
                # and the captures: most nodes have neither
                capturing = node in capture_nodes
                early = False
                if node._pre_hooks or node._retain_refs:  # _retain_refs: what _retain_grad_refs reads
                    if capturing and not accumulate and _runs_on(node, needed):
                        # PyTorch captures the gradient of a node it goes on to run before its tensor hooks
                        early = _capture(node, grads, captures, captured, inputs, accumulate, needed) or True
                    grads = run_tensor_pre_hooks(node, grads, listener)
                hits = capturing and not early and not accumulate and node.__class__ is AccumulateGrad and \
                    captures.get((node, 0))
                if hits:  # grad()'s usual stop, a leaf among the inputs: what _capture does for it
                    for i in hits:
                        captured[i] = grads[0]
                    if not keep_graph:
                        node._release()
                    continue
                if capturing and not early:
                    # backward(inputs=...) runs a leaf's accumulator, hooks included; grad() only captures.
                    leaf_run = accumulate and node.__class__ is AccumulateGrad
                    if leaf_run and node._node_pre_hooks:
                        grads = run_pre_hooks(node, grads)
                    if _capture(node, grads, captures, captured, inputs, accumulate, needed):
                        if leaf_run and node._hooks:
                            run_post_hooks(node, [], grads)
                        if not keep_graph:
                            node._release()
                        continue
                if node._node_pre_hooks:
                    grads = run_pre_hooks(node, grads)
                if node.__class__ is AccumulateGrad:
                    if inputs is None:
                        node._apply(grads)
                        if node._hooks:
                            run_post_hooks(node, [], grads)
                        if listener is not None:
                            listener({"event": "accumulate", "node": id(node), "name": node.name(),
                                      "grad": grads[0], "variable": id(node.variable)})
                    continue
            g = grads[0]
            if g is not None or any(g is not None for g in grads):
                if node.__class__ is AddBackward0 and node.alpha == 1:
                    out = [g, g]  # its formula, (grad, grad), without the call (W4's sums are half its nodes)
                else:
                    out = None
                    if numpy_pass and node.numpy_formula and not fw_levels:
                        nxt = node._next_functions[0][0] if len(node._next_functions) == 1 else None
                        if nxt is not None and nxt.numpy_formula and alone is None and chain is not None \
                                and deps[nxt] == 1:
                            # on along a chain of nodes like it, each the next to run: ``node`` is then the last
                            node, out = numpy_backward.run(node, grads, chain)
                        else:
                            out = numpy_backward.run(node, grads)
                    if out is None:
                        out = node._apply(grads)  # a fresh list, which the loop below empties as it goes
                if node._input_meta is not None:
                    out = _validate(node, out)
            else:
                out = [None] * len(node._next_functions)
            edges = node._next_functions
            if node._hooks:
                out = run_post_hooks(node, out, grads)
            if listener is not None and node is not root:
                listener({"event": "node", "node": id(node), "name": type(node).__name__,
                          "grads_in": grads, "grads_out": out, "edges": edges,
                          "freed": not keep_graph and node._vars is not None})
            if not keep_graph and node._vars is not None:
                node._freed = True
                if packed[0]:
                    node._release()
                if node.holds_fn:
                    node.fn = None  # CopySlices::release_variables: its op's node (and that node's edges) go
            # PyTorch hands a node its gradients by move and moves each output into an empty buffer
            # slot, so a slot then holds its tensor's only reference; letting go of ``grads`` and
            # emptying ``out`` as we go keeps ``_add_grads``'s reference count true.
            grads = g = None
            i = -1
            for nxt, nr in edges:
                i += 1
                if nxt is None or (needed is not None and nxt not in needed):
                    continue
                g = out[i]
                # deps holds the edges still to come into nxt, negated once a buffer holds what
                # came (so a node with one edge in, a chain's, costs no buffer lookup); on the last
                # edge the buffer leaves the dict with nxt, which is ready (deps keeps the node, as
                # running_task's will_execute asks, not the count)
                left = deps[nxt]
                if left == 1 or left == -1 and nxt not in buffers:  # (-1 without one: a stray edge after its last)
                    if g is not None:
                        out[i] = None
                    if nxt.num_outputs == 1:
                        buf = [g]
                    else:
                        buf = [None] * nxt.num_outputs
                        buf[nr] = g
                elif left == -1:
                    buf = buffers.pop(nxt)
                    if g is not None:
                        if buf[nr] is None:
                            buf[nr] = g
                            out[i] = None
                        else:
                            buf[nr] = _add_grads(buf[nr], g, create_graph)
                else:
                    if left > 0:  # the first of several
                        deps[nxt] = 1 - left
                        if g is not None:
                            out[i] = None
                        if nxt.num_outputs == 1:
                            buffers[nxt] = [g]
                        else:
                            buffers[nxt] = buf = [None] * nxt.num_outputs
                            buf[nr] = g
                    else:
                        deps[nxt] = left + 1
                        if g is not None:
                            buf = buffers[nxt]
                            if buf[nr] is None:
                                buf[nr] = g
                                out[i] = None
                            else:
                                buf[nr] = _add_grads(buf[nr], g, create_graph)
                    continue
                if alone is None:
                    if not ready or -nxt._seq < ready[0][0]:
                        alone, alone_buf = nxt, buf
                        continue
                elif nxt._seq > alone._seq:
                    # only a finite seq is overtaken (so the second's is finite too), and no other node
                    # has it: the tie of the one going to the heap is immaterial
                    if second is not None:
                        heappush(ready, (-second._seq, tie, second, second_buf))
                        tie += 1
                    second, second_buf = alone, alone_buf
                    alone, alone_buf = nxt, buf
                    continue
                elif second is None:
                    if not ready or -nxt._seq < ready[0][0]:
                        second, second_buf = nxt, buf
                        continue
                elif nxt._seq > second._seq:
                    heappush(ready, (-second._seq, tie, second, second_buf))
                    tie += 1
                    second, second_buf = nxt, buf
                    continue
                heappush(ready, (-nxt._seq, tie, nxt, buf))
                tie += 1
            # a buffer slot must be its gradient's only holder (AccumulateGrad steals it then), also
            # when the node handed the same tensor to an edge that goes nowhere (AddBackward0's scalar)
            g = out = None
    finally:
        grad_mode._state[0] = prev_mode
        current_task[0] = prev_task
        if listener is not None:
            listener({"event": "end"})
    return captured


def _runs_on(node, needed):
    """True when the pass goes on through ``node`` to another input further back."""
    return node.__class__ is not AccumulateGrad and any(n is not None and n in needed for n, _ in node._next_functions)


def _capture(node, grads, captures, captured, inputs, accumulate, needed):
    """Records gradients arriving at ``inputs``; True when the pass should stop at this node."""
    hit = False
    for nr in range(len(grads)):
        for i in captures.get((node, nr), ()):
            hit = True
            captured[i] = grads[nr]
            if accumulate and grads[nr] is not None:
                _accumulate_into_input(inputs[i], grads[nr])
    if not hit:
        return False
    # Stop at an input unless another input lies further back through this node.
    return node.__class__ is AccumulateGrad or isinstance(node, AccumulateGrad) or not any(
        n is not None and n in needed for n, _ in node._next_functions)


def _accumulate_into_input(t, grad):
    """``backward(inputs=[...])`` accumulates into a leaf here; a non-leaf input was made to retain its
    grad (as PyTorch does), so the retain_grad step of ``run_tensor_pre_hooks`` has already filled it."""
    if t._grad_fn is None:
        t._get_accumulator()._apply([grad])
