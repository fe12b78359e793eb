"""One-line quick fixes for the autograd errors the graph marks, written from the script's source.

Each fix is ``{"kind", "line", "before", "after"}``: the editor line that raised, as it read
when it ran, and as it reads fixed (``after`` may hold two lines). The page applies a fix only
when the learner clicks it, and only to a line that still reads ``before``. A fix is offered
only where the source says plainly what to change; otherwise the explanation stands alone.

Example::

    >>> for_error({"kind": "nonscalar", "detail": {"tensor": "y"}}, "y.backward()", 1, "torch")
    [{'kind': 'sum', 'line': 1, 'before': 'y.backward()', 'after': 'y.sum().backward()'}, {'kind': 'ones_like', 'line': 1, 'before': 'y.backward()', 'after': 'y.backward(gradient=torch.ones_like(y))'}]
"""
import ast
import sys

from .freed_help import _column

# Statements that hold others: a fix never wraps or precedes a line that starts one.
_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.FunctionDef,
             ast.AsyncFunctionDef, ast.ClassDef) + ((ast.Match,) if hasattr(ast, "Match") else ()) + (
             (ast.TryStar,) if hasattr(ast, "TryStar") else ())
# Expressions that take a method call without parentheses: y, model.out, f(x), y[0].
_ATOMS = (ast.Name, ast.Attribute, ast.Call, ast.Subscript)


def trailing_comment(line):
    """The comment that ends ``line`` (from its ``#``), or ``""``."""
    import io
    import tokenize

    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(line + "\n").readline))
    except (tokenize.TokenError, SyntaxError):
        return ""
    comment = next((tok for tok in tokens if tok.type == tokenize.COMMENT), None)
    return line[comment.start[1]:] if comment is not None else ""


def with_comment(fix):
    """``fix`` with ``comment``: how many characters at the end of ``before`` and ``after`` are the
    line's comment, so the page can apply the fix to the same code under another comment (a
    lesson's Chinese comments, switched in with the language)."""
    comment = trailing_comment(fix["before"])
    if comment and fix["after"].endswith(comment):
        return {**fix, "comment": len(comment)}
    return fix


def torch_name(namespace):
    """The name the script bound the torch module to (``torch`` first), or None."""
    module = sys.modules.get("torch")
    if module is None:
        return None
    if namespace.get("torch") is module:
        return "torch"
    return next((name for name, value in namespace.items() if value is module and not name.startswith("_")), None)


def for_error(failed, code, lineno, torch):
    """The quick fixes for the error ``failed`` (``graph_errors.failed_node``) raised on ``lineno``.

    Args:
        failed (dict): the error's mark, with its ``kind`` and ``detail``.
        code (str): the script that ran.
        lineno (int): the script's line that raised (1-based).
        torch (str or None): the script's name for the torch module (fixes that call it need one).

    Returns:
        list: fixes, the most likely first; empty when the line gives none.
    """
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    lines = code.splitlines()
    if not 1 <= lineno <= len(lines):
        return []
    line = lines[lineno - 1]
    detail = failed.get("detail") or {}
    make = {"nonscalar": _nonscalar, "unused": _unused, "leaf_inplace": _leaf_inplace}.get(failed.get("kind"))
    edits = make(tree, line, lineno, detail, torch) if make else []
    return [{"kind": kind, "line": lineno, "before": line, "after": after} for kind, after in edits if after != line]


def _calls_on(tree, lineno):
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Call) and node.lineno == lineno == node.end_lineno]


def _text(line, node):
    return line[_column(line, node.col_offset):_column(line, node.end_col_offset)]


def _keyword(call, name):
    return next((k for k in call.keywords if k.arg == name), None)


def _append_argument(line, call, text):
    """``line`` with ``text`` passed as the call's last argument."""
    close = _column(line, call.end_col_offset) - 1
    if call.args or call.keywords:
        return line[:close].rstrip().rstrip(",") + ", " + text + line[close:]
    return line[:close] + text + line[close:]


def _first_argument(line, call, text):
    """``line`` with ``text`` passed as the call's first argument."""
    opening = line.index("(", _column(line, call.func.end_col_offset))
    rest = line[opening + 1:]
    return line[:opening + 1] + text + (", " + rest.lstrip() if call.args or call.keywords else rest)


def _is_autograd(node):
    """``autograd`` or ``torch.autograd``: the module, as the script spells it."""
    return ((isinstance(node, ast.Name) and node.id == "autograd")
            or (isinstance(node, ast.Attribute) and node.attr == "autograd"))


def _is_grad_call(call):
    func = call.func
    return ((isinstance(func, ast.Attribute) and func.attr == "grad" and _is_autograd(func.value))
            or (isinstance(func, ast.Name) and func.id == "grad"))


# ---- backward() of a non-scalar ---------------------------------------------------------------

def _backward_calls(tree, lineno):
    """``(call, output expression, gradient keyword, gradient position)`` of the calls on the
    line that take a gradient and were given none."""
    found = []
    for call in _calls_on(tree, lineno):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "backward" and not _is_autograd(func.value):
            output, keyword, position = func.value, "gradient", 0  # y.backward()
        elif isinstance(func, ast.Attribute) and func.attr == "backward" and call.args:
            output, keyword, position = call.args[0], "grad_tensors", 1  # torch.autograd.backward(y)
        elif _is_grad_call(call) and call.args:
            output, keyword, position = call.args[0], "grad_outputs", 2  # torch.autograd.grad(y, x)
        else:
            continue
        given = len(call.args) > position or _keyword(call, keyword) is not None
        if not given and not isinstance(output, (ast.List, ast.Tuple, ast.Starred)):
            found.append((call, output, keyword))
    return found


def _nonscalar(tree, line, lineno, detail, torch):
    calls = _backward_calls(tree, lineno)
    name = detail.get("tensor")
    calls.sort(key=lambda found: _text(line, found[1]) != name)  # the output that raised first
    if not calls:
        return []
    call, output, keyword = calls[0]
    text = _text(line, output)
    start, end = _column(line, output.col_offset), _column(line, output.end_col_offset)
    summed = text if isinstance(output, _ATOMS) else f"({text})"
    if keyword == "gradient" and not isinstance(output, _ATOMS):
        # (x * 3).backward(): the receiver's own parentheses are not part of its node
        start, end = line.rindex("(", 0, start), line.index(")", end) + 1
    edits = [("sum", line[:start] + summed + ".sum()" + line[end:])]
    # ones_like repeats the output's expression: only for a plain name, never a call run twice.
    plain = isinstance(output, ast.Name) or (isinstance(output, ast.Attribute) and isinstance(output.value, ast.Name))
    if torch and plain:
        argument = f"{keyword}={torch}.ones_like({text})"
        if keyword == "gradient":
            edits.append(("ones_like", _first_argument(line, call, argument)))
        else:
            edits.append(("ones_like", _append_argument(line, call, argument)))
    return edits


# ---- grad() of an unused input ------------------------------------------------------------------

def _unused(tree, line, lineno, detail, torch):
    calls = [call for call in _calls_on(tree, lineno) if _is_grad_call(call)]
    if not calls:
        return []
    call = calls[0]
    allow = _keyword(call, "allow_unused")
    if allow is not None:
        value = allow.value
        if isinstance(value, ast.Constant) and value.value is True:
            return []
        start, end = _column(line, value.col_offset), _column(line, value.end_col_offset)
        return [("allow_unused", line[:start] + "True" + line[end:])]
    edits = [("allow_unused", _append_argument(line, call, "allow_unused=True"))]
    if _keyword(call, "materialize_grads") is None:
        edits.append(("materialize_grads", _append_argument(line, call, "materialize_grads=True")))
    return edits


# ---- an in-place op on a leaf ----------------------------------------------------------------------

def _simple_line(tree, line, lineno):
    """The statements making up the whole line, when all are simple (no block starts there)."""
    statements = [node for node in ast.walk(tree) if isinstance(node, ast.stmt) and node.lineno == lineno]
    if not statements or any(isinstance(s, _COMPOUND) or s.end_lineno != lineno for s in statements):
        return None
    indent = len(line) - len(line.lstrip())
    if _column(line, min(s.col_offset for s in statements)) != indent:
        return None
    return statements


def _leaf_inplace(tree, line, lineno, detail, torch):
    statements = _simple_line(tree, line, lineno)
    if statements is None:
        return []
    indent = line[:len(line) - len(line.lstrip())]
    edits = []
    if torch:
        edits.append(("no_grad", f"{indent}with {torch}.no_grad(): {line.lstrip()}"))
    name = detail.get("tensor")
    nodes = [node for s in statements for node in ast.walk(s)]
    uses = {node.id for node in nodes if isinstance(node, ast.Name)}
    # A line that reads the leaf's .grad is an update step: a clone would lose the leaf's gradient.
    update = any(isinstance(node, ast.Attribute) and node.attr == "grad" and isinstance(node.value, ast.Name)
                 and node.value.id == name for node in nodes)
    if name and name.isidentifier() and name in uses and not update:
        edits.append(("clone", f"{indent}{name} = {name}.clone()\n{line}"))
    return edits
