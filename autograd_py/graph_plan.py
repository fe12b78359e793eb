"""What a backward pass works out before it runs: how many edges reach each node, and which nodes
lie on a path to the requested inputs; kept for a graph that is walked again.

A Jacobian by rows (``autograd.grad(y, x, row, retain_graph=True)`` in a loop) walks one retained
graph from the same node to the same inputs each time. The second such pass keeps its analysis
(a ``Plan``), and later ones reuse it when every node it reached still has the very edge tuple it
had then. Edges are fixed when a node is recorded, and the walk depends on nothing else, so equal
edge tuples give the walk that was kept. The plan holds only the first node weakly: everything else
it holds, that node reaches, and it goes when that node goes.
"""
import weakref
from operator import attrgetter, is_

_edges_of = attrgetter("_next_functions")


def collect(root, want_order=False):
    """Counts incoming edges per node; also returns the nodes in discovery order if asked."""
    deps = {}
    order = [root] if want_order else None
    stack = [root]
    while stack:
        node = stack.pop()
        while node is not None:
            follow = None  # a node seen first here is walked next, without the stack: a chain's way on
            for nxt, _ in node._next_functions:
                if nxt is None:
                    continue
                if nxt in deps:
                    deps[nxt] += 1
                else:  # first sight: the root is never an edge target, so deps doubles as "seen"
                    deps[nxt] = 1
                    if want_order:
                        order.append(nxt)
                    if follow is None:
                        follow = nxt
                    else:
                        stack.append(nxt)
            node = follow
    return deps, order


def collect_for(root, targets):
    """``collect`` (with the order) and ``needed_nodes`` for ``targets``, a set of nodes.

    Every node reaches some node without children (the graph is a finite DAG), so when all of
    those are targets, as when ``inputs`` are the leaves, every node is needed; only otherwise is
    the needed set worked out.
    """
    deps = {}
    order = [root]
    stack = [root]
    ends_elsewhere = False  # a node without children that is no target
    while stack:
        node = stack.pop()
        while node is not None:
            follow = None  # (as collect walks)
            children = False
            for nxt, _ in node._next_functions:
                if nxt is None:
                    continue
                children = True
                if nxt in deps:
                    deps[nxt] += 1
                else:
                    deps[nxt] = 1
                    order.append(nxt)
                    if follow is None:
                        follow = nxt
                    else:
                        stack.append(nxt)
            if not children and not ends_elsewhere and node not in targets:
                ends_elsewhere = True
            node = follow
    if ends_elsewhere:
        return deps, order, needed_nodes(order, targets)
    needed = set(deps)
    needed.add(root)
    needed.update(targets)  # as needed_nodes gives it, unreached targets too
    return deps, order, needed


def needed_nodes(order, targets):
    """Nodes on some path to a target node: only those run when ``inputs`` narrows the pass."""
    needed = set(targets)
    # Discovery order lists parents before children along each path, so walking it backwards
    # until nothing changes reaches a fixed point; graphs are DAGs, so few sweeps are needed.
    changed = True
    while changed:
        changed = False
        for node in reversed(order):
            if node in needed:
                continue
            for nxt, _ in node._next_functions:
                if nxt is not None and nxt in needed:
                    needed.add(node)
                    changed = True
                    break
    return needed


class Plan:
    """A retained graph's analysis from one first node to one tuple of input edges."""

    __slots__ = ("first", "targets", "first_edges", "nodes", "edges", "deps", "needed", "first_needed")

    def __init__(self, first, targets):
        self.first = weakref.ref(first, _forget)
        self.targets = targets
        self.deps = None  # analysed on the second pass from the same place

    def keep(self, first, deps, order, needed):
        """Keeps a pass's analysis (``order`` from ``collect``: the root, ``first``, the rest)."""
        self.first_edges = first._next_functions
        self.nodes = order[2:]
        self.edges = list(map(_edges_of, self.nodes))
        self.deps = deps.copy()
        del self.deps[first]  # the plan must not hold ``first``: its only edge in is the root's
        self.first_needed = needed is not None and first in needed
        self.needed = None if needed is None else needed - {first, order[0]}  # nor that pass's root

    def still_valid(self, first):
        if first._next_functions is not self.first_edges:
            return False
        nodes = self.nodes
        if len(nodes) > 8:  # C-level iteration pays off past a few nodes
            return all(map(is_, map(_edges_of, nodes), self.edges))
        for node, edges in zip(nodes, self.edges):
            if node._next_functions is not edges:
                return False
        return True


_plan = [None]
# The (id, sequence number) of the first node of the last pass that retained its graph and made no
# plan: a second pass from that node makes one. Numbers only, so nothing is kept alive, and a pass
# that is never repeated (W5's create_graph pass) pays no plan nor weakref; sequence numbers are
# never reused, so a node that takes a dead one's address is not taken for it.
_seen = [None]


def _forget(ref):
    if _plan[0] is not None and _plan[0].first is ref:
        _plan[0] = None


def analyse(root, targets, keep_graph):
    """``(deps, needed)`` for a pass from ``root``.

    Args:
        root (GraphRoot): the pass's root.
        targets (tuple or None): the ``(node, output_nr)`` edges of ``inputs``, if given.
        keep_graph (bool): the pass retains the graph (only then can it be walked again).

    Returns:
        tuple: ``deps`` (a fresh dict the pass may count down) and ``needed`` (a set, or None
        when every node runs).
    """
    edges = root._next_functions
    first = edges[0][0] if len(edges) == 1 else None
    if first is None or not keep_graph:
        return _analysed(root, targets)
    plan = _plan[0]
    if plan is not None and plan.first() is first and plan.targets == targets:
        if plan.still_valid(first):
            deps = plan.deps.copy()
            deps[first] = 1
            needed = None
            if plan.needed is not None:
                needed = set(plan.needed)
                if plan.first_needed:
                    needed.add(first)
            return deps, needed
    else:
        key = (id(first), first._seq)
        if _seen[0] != key:
            _seen[0] = key
            return _analysed(root, targets)
        plan = None
    if targets is None:
        deps, order = collect(root, True)
        needed = None
    else:
        deps, order, needed = collect_for(root, {node for node, _ in targets})
    # only targets the walk reaches: then the first node holds all that a plan holds
    if plan is None and (targets is None or all(node in deps for node, _ in targets)):
        plan = _plan[0] = Plan(first, targets)
    if plan is not None:
        plan.keep(first, deps, order, needed)
    return deps, needed


def _analysed(root, targets):
    if targets is None:
        return collect(root)[0], None
    # one input (grad(y, x)) without the set comprehension's call
    deps, _, needed = collect_for(root, {targets[0][0]} if len(targets) == 1 else {node for node, _ in targets})
    return deps, needed
