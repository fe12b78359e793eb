"""Which recorded nodes the graph shows at each stored step of a timeline, for the page.

The graph at a step is what is reachable from the names bound then (``timeline``'s docstring):
each bound tensor's grad_fn, and from each node its inputs (``next`` of its row; a node without a
row, such as an AccumulateGrad, by its ``next`` edges in the run's final graph). The page draws
that graph without walking it: the export ships, for every node id, the ranges of stored steps
(0-based indices into ``steps``) it is reachable at.

The reachable set changes only where the set of grad_fns the bound names hold does (``for p in
params`` rebinding leaves changes nothing), and then mostly by the statement's new nodes: what the
roots taken on reach beyond what was reachable is added. A root let go of takes nothing with it
when a root still reaches it, which a walk up from it through what is reachable finds in a step or
two (``y = y + x`` lets go of the old ``y``'s node, an input of the new one; ``for xi in hidden``
lets go of a node the sum of the products holds). What a root no root reaches any more reached
(``s = b`` at a neuron's start, a new training step's ``loss``) is sorted out from that root down:
a node stays if a parent that stays holds it. A walk from all the roots at every step would make a
training loop's export quadratic in its length.

Limits: at most ``VISIT_BUDGET`` node visits in all (a long run keeps at most ``STEP_LIMIT``
steps, yet each could reach thousands of nodes); beyond, ``visible_until`` is the first stored
step index without an answer, and the page then shows the final graph's nodes made by that step.
"""
VISIT_BUDGET = 2_000_000
_UNBOUND = object()


def visibility(timeline, final_graph, rename):
    """Step ranges at which each node is reachable from the bound names.

    Args:
        timeline (timeline.Timeline): a finished timeline.
        final_graph (dict or None): ``graph.export``'s JSON of the run's end.
        rename (dict): ``NodeIds.renames()``: internal id -> the page's id.

    Returns:
        tuple: ``({page id: [first, last, first, last, ...]}, visible_until)``, indices into the
        stored steps (inclusive), and None or the first index left without an answer.
    """
    page = (lambda nid: rename.get(nid, nid)) if rename else (lambda nid: nid)
    inputs = {}  # page id -> its inputs' page ids: a row's next, else its final graph's next edges
    for edge in (final_graph or {}).get("edges", ()):
        if edge["kind"] == "next":
            inputs.setdefault(edge["from"], []).append(edge["to"])
    if rename:
        for nid, row in timeline.node_rows.items():
            inputs[page(nid)] = [page(n) for n in row["next"] if n is not None]
    else:  # (a row's own list when it has no None: nothing changes these lists)
        for nid, row in timeline.node_rows.items():
            ins = row["next"]
            inputs[nid] = ins if None not in ins else [n for n in ins if n is not None]

    names, roots, reach = {}, frozenset(), set()  # names: bound name -> its grad_fn's (internal) id
    into = {}  # page id -> how many edges into it come from ``reach`` (``_lost``)
    holders = {}  # page id of a grad_fn -> how many bound names hold it: the roots are its keys
    opened, ranges = {}, {}
    visits, until = 0, None
    parents = None  # page id -> the nodes that take it as an input (made when a root is let go of)
    for index, step in enumerate(timeline.steps):
        changed = step["delta"]["vars"]
        if not changed:
            continue
        moved = False  # whether a grad_fn gained its first holder or lost its last
        for name, summary in changed.items():
            fn = summary["grad_fn_id"] if summary is not None else None
            old = names.get(name, _UNBOUND)
            if old == fn:  # (a leaf rebound or changed in place stays a leaf: most changes)
                continue
            if old is not _UNBOUND and old is not None:
                old = page(old)
                left = holders[old] - 1
                if left:
                    holders[old] = left
                else:
                    del holders[old]
                    moved = True
            if summary is None:
                names.pop(name, None)
                continue
            names[name] = fn
            if fn is not None:
                fn = page(fn)
                held = holders.get(fn, 0)
                holders[fn] = held + 1
                moved = moved or not held
        if not moved:  # (``for p in params`` rebinding leaves, ``p -= ...``: the same roots)
            continue
        now = frozenset(holders)
        if now == roots:
            continue
        fresh = set()  # what the new roots reach beyond what was reachable: mostly the statement's new nodes
        stack = list(now - roots)
        while stack:  # no recursion: a graph may be deep
            nid = stack.pop()
            if nid in reach or nid in fresh:
                continue
            fresh.add(nid)
            visits += 1
            stack.extend(inputs.get(nid, ()))
        dropped = roots - now
        lost = frozenset()  # what only the roots let go of reached
        if dropped:
            if parents is None:
                parents = _parents(inputs)
            alone = []  # the roots let go of that no root reaches
            for nid in dropped:
                found, visits = _reached_from(nid, now, reach, fresh, parents, visits)
                if not found:
                    alone.append(nid)
            if alone:
                lost, visits = _lost(alone, now, reach, fresh, inputs, into, visits)
        if visits > VISIT_BUDGET:
            until = index
            break
        for nid in fresh:
            opened[nid] = index
            for child in inputs.get(nid, ()):
                into[child] = into.get(child, 0) + 1
        for nid in lost:
            spans = ranges.get(nid)
            if spans is None:
                ranges[nid] = [opened.pop(nid), index - 1]
            else:
                spans += (opened.pop(nid), index - 1)
            for child in inputs.get(nid, ()):
                into[child] -= 1
        reach |= fresh
        reach -= lost
        roots = now
    last = (until if until is not None else len(timeline.steps)) - 1
    for nid, first in opened.items():
        ranges.setdefault(nid, []).extend((first, last))
    return ranges, until


def _parents(inputs):
    """The reverse of ``inputs``: page id -> the ids of the nodes it is an input of."""
    parents = {}
    for nid, ins in inputs.items():
        for i in ins:
            have = parents.get(i)
            if have is None:
                parents[i] = [nid]
            else:
                have.append(nid)
    return parents


def _reached_from(nid, roots, reach, fresh, parents, visits):
    """Whether one of ``roots`` reaches ``nid``, looked for upwards from it: ``(found, visits)``.

    Only through what was reachable or newly is (``reach``, ``fresh``): a path from a root holds
    nothing else. ``y = y + x`` lets go of the old ``y``'s node, an input of the new one: one step.
    """
    seen = {nid}
    stack = [nid]
    while stack:
        for p in parents.get(stack.pop(), ()):
            if p in roots:
                return True, visits
            if p not in seen and (p in reach or p in fresh):
                seen.add(p)
                visits += 1
                stack.append(p)
    return False, visits


def _lost(tops, roots, reach, fresh, inputs, into, visits):
    """What only ``tops`` (roots let go of that no root reaches) reached: ``(lost, visits)``.

    Of what they reach, a node stays when it is a root, or when a parent that is reachable and not
    below ``tops`` holds it (a root reaches such a parent), or a parent below them that stays; each
    is decided once its parents below them are, from the top down (the graph has no cycles).
    """
    below = set()
    stack = list(tops)
    while stack:
        nid = stack.pop()
        if nid in below or nid not in reach:
            continue
        below.add(nid)
        visits += 1
        stack.extend(inputs.get(nid, ()))
    # Whether a parent outside ``below`` holds a node is counted from the parents' side: edges into it
    # from what is reachable (``into``, kept as ``reach`` changes) or newly is, less those from
    # ``below`` (all reachable). Its list of parents would do, but an AccumulateGrad has one per use
    # in the whole run (micrograd's parameters: 80), nearly all of them gone.
    waiting = dict.fromkeys(below, 0)  # node -> its parents below not decided yet
    for nid in below:
        for child in inputs.get(nid, ()):
            if child in waiting:
                waiting[child] += 1
    from_fresh = {}
    for nid in fresh:
        for child in inputs.get(nid, ()):
            if child in waiting:
                from_fresh[child] = from_fresh.get(child, 0) + 1
    held = set()  # nodes known to stay
    for nid in below:
        if nid in roots or into.get(nid, 0) + from_fresh.get(nid, 0) > waiting[nid]:
            held.add(nid)
    visits += len(below)
    lost = set()
    ready = [nid for nid, count in waiting.items() if not count]
    while ready:
        nid = ready.pop()
        stays = nid in held
        if not stays:
            lost.add(nid)
        for child in inputs.get(nid, ()):
            if child in below:
                if stays:
                    held.add(child)
                waiting[child] -= 1
                if not waiting[child]:
                    ready.append(child)
    return lost, visits
