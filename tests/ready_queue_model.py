"""A plain model of PyTorch's ready queue, which the engine's node order is held to.

Nodes become ready when their last incoming edge delivers; the ready node with the highest
sequence number runs first (leaves' accumulators, the maximum, before all), ties in the order they
became ready. Used by ``test_engine_ready_order.py`` and ``test_engine_fast_paths.py``.
"""
import heapq


def ready_order(root_edges):
    """The nodes in the order the model runs them, from the pass's root edges ``(node, nr)``."""
    deps = {}
    for n, _ in root_edges:
        deps[n] = deps.get(n, 0) + 1
    stack, seen = list(deps), set(deps)
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    ready, tie, order = [], 0, []
    for n, _ in root_edges:
        deps[n] -= 1
        if deps[n] == 0:
            ready.append((-n._seq, tie, n))
            tie += 1
    heapq.heapify(ready)
    while ready:
        node = heapq.heappop(ready)[2]
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] -= 1
            if deps[nxt] == 0:
                heapq.heappush(ready, (-nxt._seq, tie, nxt))
                tie += 1
    return order
