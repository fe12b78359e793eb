"""Which editor line made each autograd node, and in what order: the graph view's ``line``/``order``.

While a playground run executes, ``Provenance`` is installed as ``ops.base.node_recorder``: every
node that gets its edges (an op's node, a custom Function's, a CopySlices) is passed to it, and it
notes the 1-based line of the innermost frame running the user's code, with a running count.
A line in a loop makes a new node each iteration, so each carries the iteration's order. Outside
the playground the hook is None and recording costs one check.

Example::

    >>> with Provenance() as prov:
    ...     exec(compile("import torch\\nx = torch.ones(2, requires_grad=True)\\ny = x * 2", "<editor>", "exec"), {})
    >>> prov.of(y.grad_fn)
    {'line': 3, 'order': 1}
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
        # id(node) -> (line, order, weakref to the node): a plain dict costs less per node than a
        # WeakKeyDictionary; the weakref tells a live node from a dead one whose id was reused.
        self.info = {}
        self.order = 0
        self._prune_at = 4096

    def __enter__(self):
        self._previous = base.node_recorder[0]
        base.node_recorder[0] = self
        return self

    def __exit__(self, *exc):
        base.node_recorder[0] = self._previous
        return False

    def __call__(self, node):
        known = self.info.get(id(node))
        if known is not None and known[2]() is node:  # edges set again: the node keeps its first place
            return
        filename = self.filename
        frame = sys._getframe(2)
        while frame is not None and frame.f_code.co_filename != filename:
            frame = frame.f_back
        self.order += 1
        self.info[id(node)] = (frame.f_lineno if frame is not None else None, self.order, weakref.ref(node))
        if len(self.info) > self._prune_at:  # dead nodes' entries go as the table doubles: linear in all
            self.info = {k: v for k, v in self.info.items() if v[2]() is not None}
            self._prune_at = max(4096, 2 * len(self.info))
        if self.on_node is not None:
            self.on_node(node)

    def of(self, node):
        """``{"line", "order"}`` of ``node`` (both None for a node made outside the run)."""
        known = self.info.get(id(node))
        if known is None or known[2]() is not node:
            return {"line": None, "order": None}
        return {"line": known[0], "order": known[1]}
