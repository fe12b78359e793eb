"""Gradient flow (issue 12): where a selected node's gradient comes from and where it goes.

The graph view highlights, for a selected node, every node on a path from it to a root (its
gradient comes from there) and every node its gradient reaches, down to the leaves. Both are
reachability along the edges of ``graph.export``'s JSON, which point the way ``backward()`` walks
(tensor -> its grad_fn -> next functions -> AccumulateGrad -> leaf); a ``detached`` edge carries
no gradient.

``add_reach`` ships the answer with the graph (marked ``"reach": True``), so a click needs no
request: each node gets
``reach``, the set of nodes its gradient reaches (itself included) as a hexadecimal bit set over
the order of ``nodes`` (bit i: ``nodes[i]``). What reaches a node is then the nodes whose ``reach``
has its bit: the page reads bits, it walks nothing. Python's integers make the sets cheap: one
pass in reverse topological order ORs each node's successors' sets (no recursion: a graph can be
thousands of nodes deep), and at most ``GRAPH_BUDGET`` nodes are drawn, so a set is at most 100
hex digits.

``flow_at_step`` answers for a graph the page draws at a timeline step from the timeline's rows
(nodes freed since, names rebound), which carries no ``reach``: the same walk over the edges that
step's graph has (the page asks for it when such a node is selected).
"""


def add_reach(graph):
    """Sets ``reach`` on every node of ``graph`` (``graph.export``'s JSON, changed in place).

    Args:
        graph (dict): ``{"nodes", "edges", ...}``.

    Returns:
        dict: ``graph``.
    """
    if not graph:
        return graph
    nodes = graph["nodes"]
    index = {node["id"]: i for i, node in enumerate(nodes)}
    successors = _successors(graph["edges"], index, len(nodes))
    for i, bits in enumerate(_reach(successors)):
        nodes[i]["reach"] = format(bits, "x")
    graph["reach"] = True  # the bits index this graph's nodes: a graph built from its nodes has none
    return graph


def gradient_flow(edges, node_id):
    """``{"up", "down"}``: sorted ids of the nodes on a path from a root to ``node_id`` and of the
    nodes its gradient reaches, both with ``node_id`` itself, over ``edges`` (graph JSON edges)."""
    ids = sorted({e["from"] for e in edges} | {e["to"] for e in edges} | {node_id})
    index = {nid: i for i, nid in enumerate(ids)}
    successors = _successors(edges, index, len(ids))
    reach = _reach(successors)
    me = index[node_id]
    down = [ids[i] for i in _bits(reach[me])]
    up = [ids[i] for i in range(len(ids)) if reach[i] >> me & 1]
    return {"up": up, "down": down}


def flow_at_step(timeline, final_graph, step, node_id):
    """``gradient_flow`` over the graph the page draws at ``step`` (``timeline_graph.js``'s edges:
    each bound tensor to its grad_fn, each recorded node to its inputs, a node without a row to
    its edges in ``final_graph``).

    Args:
        timeline (timeline.Timeline): the last run's.
        final_graph (dict): ``graph.export``'s JSON of the run's end (as the page has it).
        step (int): a step number.
        node_id (str): the selected node's id, as the page has it.

    Returns:
        dict: ``{"ok": True, "up", "down"}``.
    """
    rename = timeline.node_id.renames()
    page_id = (lambda nid: rename.get(nid, nid)) if rename else (lambda nid: nid)
    internal = {new: old for old, new in rename.items()}
    names = {}
    for s in timeline.steps:
        if s["step"] > step:
            break
        for name, summary in s["delta"]["vars"].items():
            if summary is None:
                names.pop(name, None)
            else:
                names[name] = summary
    final_edges = {}
    for edge in (final_graph or {}).get("edges", ()):
        final_edges.setdefault(edge["from"], []).append(edge)
    edges, seen, queue = [], set(), []
    for summary in names.values():
        fn = summary["grad_fn_id"]
        if fn is not None:
            edges.append({"from": summary["id"], "to": page_id(fn), "kind": "grad_fn"})
            queue.append(page_id(fn))
    while queue:  # no recursion: a graph may be deep
        nid = queue.pop()
        if nid in seen:
            continue
        seen.add(nid)
        row = timeline.node_rows.get(internal.get(nid, nid))
        if row is not None:
            for nxt in row["next"]:
                if nxt is not None:
                    edges.append({"from": nid, "to": page_id(nxt), "kind": "next"})
                    queue.append(page_id(nxt))
        else:
            for edge in final_edges.get(nid, ()):
                edges.append(edge)
                if edge["kind"] == "next":
                    queue.append(edge["to"])
    return {"ok": True, **gradient_flow(edges, node_id)}


def _successors(edges, index, n):
    successors = [[] for _ in range(n)]
    for edge in edges:
        if edge["kind"] == "detached":  # a detach() edge carries no gradient
            continue
        a, b = index.get(edge["from"]), index.get(edge["to"])
        if a is not None and b is not None:
            successors[a].append(b)
    return successors


def _reach(successors):
    """Each node's reachable set (itself included) as an int bit set: an iterative depth-first
    post-order, so every successor's set is complete before its predecessors' (a DAG; on a cycle,
    which autograd's graphs do not have, a set may miss part of it)."""
    n = len(successors)
    reach = [0] * n
    state = [0] * n  # 0 new, 1 on the stack, 2 done
    for start in range(n):
        if state[start]:
            continue
        stack = [(start, 0)]
        state[start] = 1
        while stack:
            node, at = stack[-1]
            nexts = successors[node]
            if at < len(nexts):
                stack[-1] = (node, at + 1)
                nxt = nexts[at]
                if not state[nxt]:
                    state[nxt] = 1
                    stack.append((nxt, 0))
                continue
            stack.pop()
            bits = 1 << node
            for nxt in nexts:
                bits |= reach[nxt]
            reach[node] = bits
            state[node] = 2
    return reach


def _bits(value):
    i = 0
    while value:
        if value & 1:
            yield i
        value >>= 1
        i += 1
