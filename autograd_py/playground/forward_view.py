"""The forward-mode view: each op that pushed a tangent during a run, with values and tangents,
as a graph drawn in the forward direction (inputs -> op -> output).

Reverse mode leaves a graph behind (``grad_fn``) that ``graph.export`` walks after the run; forward
mode leaves none, since every tangent is computed as the op runs. So this view listens while the
code runs (``forward_mode.listener``) and keeps a snapshot per op: the value and the tangent as
they were then.

The JSON shape::

    {"tensors": [{"id", "names", "shape", "value", "tangent", "level"}],
     "ops": [{"id", "name", "label", "inputs", "outputs", "level", "rule"}],
     "dropped": 0}

Example::

    >>> with ForwardRecorder() as rec:
    ...     with fwAD.dual_level():
    ...         y = fwAD.make_dual(x, v).sin()
    >>> [op["label"] for op in rec.export({})["ops"]]
    ['Sin']
"""
import re

from .. import forward_mode
from .._tensor import Tensor
from ..node import Node
from .graph import named_tensors, preview

LIMIT = 300  # most ops kept; a longer forward pass is counted, not drawn


def _label(node):
    """``MulBackward0`` -> ``Mul``: the forward view names the op, not its backward node."""
    return re.sub(r"Backward\d*$", "", node.name()) or node.name()


def _rule(node):
    """How the node pushes tangents: derived from its backward (elementwise) or its own jvp."""
    if node.element_wise and type(node).jvp is Node.jvp:
        return "element_wise"
    return "jvp"


class ForwardRecorder:
    """Listens to forward-mode ops while installed (a context manager).

    Args:
        limit (int, optional): the most ops kept. Defaults to ``LIMIT``.
    """

    def __init__(self, limit=LIMIT):
        self.limit = limit
        self.ops = []
        self.tensors = {}  # id -> (tensor, json); the tensor is held so its id stays unique
        self.dropped = 0

    def __enter__(self):
        self._previous = forward_mode.listener[0]
        forward_mode.listener[0] = self
        return self

    def __exit__(self, *exc):
        forward_mode.listener[0] = self._previous
        return False

    def _tensor_id(self, t, level):
        key = id(t)
        if key not in self.tensors:
            tangent = forward_mode.tangent(t, level)
            self.tensors[key] = (t, {
                "id": f"t{key}", "shape": list(t._data.shape), "value": preview(t._data),
                "tangent": preview(tangent._data) if tangent is not None else None, "level": level})
        return f"t{key}"

    def __call__(self, node, inputs, out, level):
        if len(self.ops) >= self.limit:
            self.dropped += 1
            return
        outs = out if isinstance(out, (tuple, list)) else (out,)
        self.ops.append({
            "id": f"j{len(self.ops)}", "name": node.name(), "label": _label(node), "level": level,
            "rule": _rule(node),
            "inputs": [self._tensor_id(t, level) if isinstance(t, Tensor) else None for t in inputs],
            "outputs": [self._tensor_id(t, level) for t in outs if isinstance(t, Tensor)]})

    def export(self, namespace):
        """The view's JSON; tensors still bound to a name in ``namespace`` carry those names."""
        names = {}
        for name, t in named_tensors(namespace):
            names.setdefault(id(t), []).append(name)
        tensors = [{**row, "names": names.get(key, [])} for key, (_, row) in self.tensors.items()]
        return {"tensors": tensors, "ops": self.ops, "dropped": self.dropped}
