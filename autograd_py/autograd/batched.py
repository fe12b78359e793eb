"""One backward pass for a whole stack of vector-Jacobian products (``vectorize=True``)."""
import numpy as np

from .. import engine
from ..ops import base
from .._tensor import _make
from .api import grad as autograd_grad


def _graph_supports_batching(root):
    seen, stack = {root}, [root]
    while stack:
        node = stack.pop()
        if (not node.supports_batched or node._pre_hooks or node._node_pre_hooks or node._retain_grad_refs
                or node._hooks):
            return False
        for nxt, _ in node._next_functions:
            if nxt is not None and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return True


def batched_vjp(output, inputs, cotangents, create_graph=False):
    """``vᵀJ`` for every row ``v`` of ``cotangents`` (shape ``(B, *output.shape)``).

    Runs the graph once with gradients that carry a leading batch dim. Falls back to one pass per
    row when the graph holds a node that cannot take batched gradients (a custom Function, hooks)
    or when ``create_graph`` asks for a differentiable result.

    Returns:
        list: per input, a ``(B, *input.shape)`` tensor, or None when the input is unused.
    """
    if create_graph or not _graph_supports_batching(output._grad_fn):
        rows = [autograd_grad(output, inputs, v, retain_graph=True, create_graph=create_graph,
                              allow_unused=True) for v in cotangents]
        from ..ops.joining import stack
        result = []
        for k, x in enumerate(inputs):
            per_row = [r[k] if r[k] is not None else _make(np.zeros_like(x._data)) for r in rows]
            result.append(stack(per_row) if any(r[k] is not None for r in rows) else None)
        return result
    base.batch_ndim[0] = 1
    try:
        return engine.run_backward([output], [cotangents], keep_graph=True, create_graph=False,
                                   inputs=list(inputs), accumulate=False)
    finally:
        base.batch_ndim[0] = 0
