"""Why a graph can no longer be backpropagated through, and the one-line fix, for the views.

The commonest snippet ends in ``out.backward()``, which frees the saved tensors of ``out``'s
graph; the Backward & Jacobian view then hits "Trying to backward through the graph a second
time". The session notes which call freed a graph (``FreeingCalls``); this module says which
tensors' graphs are freed and how the script's call reads with ``retain_graph=True``.
"""

import ast
import functools


def freed_tensor_ids(named):
    """Ids (``"t<id>"``, as in ``graph.export``) of the tensors whose graph reaches a freed node.

    Args:
        named (list): tensors, e.g. those a namespace names.

    One iterative depth-first pass over the whole graph: nothing recurses, and a node shared by
    many tensors is looked at once.
    """
    memo = {}
    for tensor in named:
        start = tensor._grad_fn
        if start is None or id(start) in memo:
            continue
        stack = [(start, iter(start.next_functions))]
        while stack:
            node, children = stack[-1]
            for child, _ in children:
                if child is not None and id(child) not in memo:
                    stack.append((child, iter(child.next_functions)))
                    break
            else:
                stack.pop()
                memo[id(node)] = node._freed or any(memo.get(id(c), False) for c, _ in node.next_functions
                                                    if c is not None)
    return [f"t{id(t)}" for t in named if t._grad_fn is not None and memo.get(id(t._grad_fn))]


def _is_backward_call(call):
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "backward":
        return True
    # torch.autograd.grad(...) and autograd.grad(...)
    return (isinstance(func, ast.Attribute) and func.attr == "grad" and isinstance(func.value, (ast.Attribute, ast.Name))
            and getattr(func.value, "attr", getattr(func.value, "id", None)) == "autograd")


def _column(line, byte_offset):
    """ast's column (a UTF-8 byte offset) as a character index into ``line``."""
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", "ignore"))


def retain_graph_fix(code, lineno):
    """The backward call on line ``lineno`` of ``code`` with ``retain_graph=True``.

    Args:
        code (str): the script that ran.
        lineno (int): the line (1-based) where the pass that freed the graph started.

    Returns:
        dict or None: ``{"line", "before", "after"}``, the line's text before and after the edit,
        or None when no single-line backward call without ``retain_graph=True`` is on that line.
    """
    fix = _retain_graph_fix(code, lineno)
    return dict(fix) if fix is not None else None


# Every pass that frees a graph asks, and a training loop asks about the same line each time:
# parsing the script for each of W2's 40 passes was 14% of its run.
@functools.lru_cache(maxsize=32)
def _retain_graph_fix(code, lineno):
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    lines = code.splitlines()
    if not 1 <= lineno <= len(lines):
        return None
    before = lines[lineno - 1]
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and call.lineno == lineno == call.end_lineno and _is_backward_call(call)):
            continue
        keyword = next((k for k in call.keywords if k.arg == "retain_graph"), None)
        if keyword is not None:
            value = keyword.value
            if isinstance(value, ast.Constant) and value.value is True:
                return None
            start, end = _column(before, value.col_offset), _column(before, value.end_col_offset)
            after = before[:start] + "True" + before[end:]
        else:
            close = _column(before, call.end_col_offset) - 1  # the call's ")"
            if call.args or call.keywords:
                after = before[:close].rstrip().rstrip(",") + ", retain_graph=True" + before[close:]
            else:
                after = before[:close] + "retain_graph=True" + before[close:]
        return {"line": lineno, "before": before, "after": after}
    return None


class FreeingCalls:
    """Where graphs were freed: the user's line and call, noted after every backward pass, for the
    last pass that freed one and for each node it freed (the graph marks a node that raised)."""

    MAX_NODES = 5000  # freed nodes remembered; the oldest are forgotten first

    def __init__(self):
        self.last = None
        self.by_node = {}

    def clear(self):
        self.last = None
        self.by_node.clear()

    def note(self, where, freed, script, nodes=()):
        """Called after a top-level pass.

        Args:
            where (tuple or None): ``(filename, lineno)`` of the user's line that ran the pass.
            freed (bool): the pass freed saved tensors (no ``retain_graph``).
            script (tuple or None): ``(filename, code)`` of the command that is running.
            nodes (iterable): ids (``"f<id>"``) of the nodes the pass freed.
        """
        known = freed and where is not None and script is not None and where[0] == script[0]
        for node in nodes:  # a node freed by an unknown call forgets what an older node of its id had
            self.by_node.pop(node, None)
            self.by_node[node] = None
        if not known:
            self._trim()
            return
        filename, code = script
        lines = code.splitlines()
        lineno = where[1]
        call = lines[lineno - 1].strip() if 1 <= lineno <= len(lines) else ""
        self.last = {"source": filename, "line": lineno, "call": call}
        self.last["fix"] = retain_graph_fix(code, lineno) if filename == "<editor>" else None
        for node in nodes:
            self.by_node[node] = self.last
        self._trim()

    def _trim(self):
        while len(self.by_node) > self.MAX_NODES:
            del self.by_node[next(iter(self.by_node))]

    def fix_for(self, node_id):
        """The ``retain_graph=True`` fix of the call that freed node ``node_id``, or None."""
        call = self.by_node.get(node_id)
        return call["fix"] if call else None

    def export(self):
        return self.last
