"""Which editor line made each autograd node, and in what order: the graph view's ``line``/``order``.

While a playground run executes, ``Provenance`` is installed as ``ops.base.node_recorder``: every
node that gets its edges (an op's node, a custom Function's, a CopySlices) is passed to it, and it
notes the 1-based line of the innermost frame running the user's code, with a running count.
A line in a loop makes a new node each iteration, so each carries the iteration's order. Outside
the playground the hook is None and recording costs one check.

Example::

    >>> with Provenance() as prov:
    ...     exec(compile("import torch\\nx = torch.ones(2, requires_grad=True)\\ny = x * 2", "<editor>", "exec"), {})
    >>> prov.info[y.grad_fn]
    (3, 1)
"""
import sys
import weakref

from ..ops import base

EDITOR_FILENAME = "<editor>"


class Provenance:
    """Remembers ``(line, order)`` for every node recorded while installed (a context manager).

    Args:
        filename (str, optional): the pseudo file name of the user's code. Defaults to
            ``"<editor>"``.
        on_node (callable, optional): also called with each new node (the timeline collects them).
    """

    def __init__(self, filename=EDITOR_FILENAME, on_node=None):
        self.filename = filename
        self.on_node = on_node
        self.info = weakref.WeakKeyDictionary()  # node -> (line, order); a dead node is forgotten
        self.order = 0

    def __enter__(self):
        self._previous = base.node_recorder[0]
        base.node_recorder[0] = self
        return self

    def __exit__(self, *exc):
        base.node_recorder[0] = self._previous
        return False

    def __call__(self, node):
        if node in self.info:  # edges set again on the same node: it keeps its first place
            return
        filename = self.filename
        frame = sys._getframe(2)
        while frame is not None and frame.f_code.co_filename != filename:
            frame = frame.f_back
        self.order += 1
        self.info[node] = (frame.f_lineno if frame is not None else None, self.order)
        if self.on_node is not None:
            self.on_node(node)

    def of(self, node):
        """``{"line", "order"}`` of ``node`` (both None for a node made outside the run)."""
        line, order = self.info.get(node, (None, None))
        return {"line": line, "order": order}
