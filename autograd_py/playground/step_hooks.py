"""The editor's code with a call to the timeline's recorder at the start of every statement.

``instrument`` rewrites the code's ``ast`` before compiling it, so recording a run costs a call per
executed statement instead of ``sys.settrace``'s call per function call everywhere (the library's
too). The user's own nodes keep their line and column numbers, so tracebacks, warnings and error
marks are those of the code as typed. The calls (their names are in ``HOOKS``; the timeline puts
them in the run's builtins, so ``dir()`` and ``globals()`` do not show them):

- ``__ag_step__(line)`` before each statement, in loops, ``if``/``try``/``with`` blocks, and the
  functions and classes the code defines (not before docstrings, ``from __future__`` imports,
  ``global`` and ``nonlocal``, which run nothing);
- ``__ag_loop__(line)`` instead, before a ``for``/``while`` statement: a new run of that loop
  (both take a second argument, the names the step can change, when ``_binds``/``_enters`` know them,
  and ``__ag_step__`` a third for a statement made of one call: ``_around_call``'s names);
- ``for t in __ag_for__(iterable, line)``: a generator that opens the header's step before asking
  for each next item (and after the last, the check that ends the loop), as a line event would;
- ``while __ag_next__(line) and (test)``: the header's step before each test but the first, and
  ``__ag_done__(line)`` first in the loop's ``else`` (created if absent): the test that ended it.

Example::

    >>> code, loops, targets = instrument("for i in range(2):\\n    y = i\\n", "<editor>")
    >>> loops, targets
    ({1: 2}, {1: ('i',)})
"""
import ast
import sys

HOOKS = ("__ag_step__", "__ag_loop__", "__ag_for__", "__ag_next__", "__ag_done__")
_STEP_CALL, _LOOP_CALL, _FOR_CALL, _NEXT_CALL, _DONE_CALL = HOOKS
STEP, ENTER, NEXT = 0, 1, 2  # what a line event is: a statement, a loop's start, a loop's header again


def instrument(code, filename, flags=0):
    """Compiles ``code`` with the recorder's calls inserted.

    Args:
        code (str): the editor's source (already known to compile).
        filename (str): the pseudo file name, as for ``compile``.
        flags (int, optional): ``compile`` flags. Defaults to 0.

    Returns:
        tuple: the code object, ``{header_line: last_line}`` of every ``for``/``while`` loop, and
        ``{header_line: names}`` of every ``for`` loop, the names its header binds (None when it
        assigns to an attribute or an item).
    """
    tree = ast.parse(code, filename)
    loops, targets = {}, {}
    _add(tree, loops, targets)
    return compile(tree, filename, "exec", flags=flags, dont_inherit=True), loops, targets


def _at(node, where):
    """``node`` (a new one) located at ``where``."""
    node.lineno, node.col_offset = where.lineno, where.col_offset
    node.end_lineno, node.end_col_offset = where.end_lineno, where.end_col_offset
    return node


def _call(name, line, where, *args):
    """``name(*args, line)`` located at ``where`` (a traceback never shows it: it does not raise)."""
    func, number = _at(ast.Name(id=name, ctx=ast.Load()), where), _at(ast.Constant(line), where)
    return _at(ast.Call(func=func, args=[*args, number], keywords=[]), where)


def _statement(name, line, where, more=()):
    """``name(line, *more)`` as a statement (``more``: constants)."""
    call = _call(name, line, where)
    call.args.extend(_at(ast.Constant(value), where) for value in more)
    return _at(ast.Expr(call), where)


def _names(target):
    """The names an assignment target binds, or None if it also writes an attribute or an item."""
    if isinstance(target, ast.Name):
        return (target.id,)
    if isinstance(target, ast.Starred):
        return _names(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        names = [_names(t) for t in target.elts]
        return None if None in names else tuple(n for part in names for n in part)
    return None


_RUNS_CODE = (ast.Call, ast.Await, ast.Yield, ast.YieldFrom, ast.NamedExpr)


def _runs_code(node):
    """Whether expression ``node`` holds a call (or an await, a yield, a walrus). ``ast.walk``'s
    generators made this check most of ``instrument``'s time."""
    stack = [node]
    while stack:
        node = stack.pop()
        if isinstance(node, _RUNS_CODE):
            return True
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, ast.AST):
                stack.append(value)
            elif isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, ast.AST))
    return False


def _binds(stmt, module_level=False):
    """The names a statement can change if it calls nothing and writes no attribute or item (the
    library's operators and properties make new tensors, they do not change named ones), else None.

    Only these names are looked at when its step closes: ``t = t + i`` costs one lookup, not a scan
    of every name (code it calls, editor functions included, runs steps of its own). At module
    level, where a name is the watched global itself, also ``p -= lr * p.grad`` and ``p.grad =
    None``: they change the tensor ``p`` names in place, which ``StateWatch`` follows to the other
    names of that tensor (and to a full look when another named tensor shares its memory). In a
    function ``p`` may be a local alias of a global tensor: a full look there.
    """
    if module_level and isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
        targets, values = [stmt.target], [stmt.value]
    elif (module_level and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
          and isinstance(stmt.targets[0], ast.Attribute) and isinstance(stmt.targets[0].value, ast.Name)):
        targets, values = [stmt.targets[0].value], [stmt.value]
    elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        values = [stmt.value] if stmt.value is not None else []
    elif isinstance(stmt, ast.Delete):
        targets, values = stmt.targets, []
    elif isinstance(stmt, (ast.If, ast.Expr, ast.Return)):  # an if's step is its test
        targets, values = [], [stmt.test if isinstance(stmt, ast.If) else stmt.value]
    elif isinstance(stmt, (ast.Pass, ast.Break, ast.Continue)):
        return ()
    else:
        return None
    names = [_names(t) for t in targets]
    if None in names or any(_runs_code(v) for v in values if v is not None):
        return None
    return tuple(n for part in names for n in part)


def _around_call(stmt):
    """The names a statement made of one call can change apart from what that call does, or None:
    ``loss.backward()`` -> ``()``, ``g = torch.autograd.grad(y, [x])`` -> ``("g",)``, when the
    call's function and arguments call nothing themselves.

    The timeline uses it around a backward pass that starts inside that call: before the pass only
    the call's own (library) code ran, and after it only the rest of that call and the binding, so
    the steps around the pass look at these names instead of every name."""
    if isinstance(stmt, ast.Expr):
        names = ()
    elif isinstance(stmt, ast.Assign):
        names = [_names(t) for t in stmt.targets]
        if None in names:
            return None
        names = tuple(n for part in names for n in part)
    else:
        return None
    call = stmt.value
    if not isinstance(call, ast.Call) or _runs_code(call.func):
        return None
    if any(_runs_code(a) for a in call.args) or any(_runs_code(k.value) for k in call.keywords):
        return None
    return names


def _enters(loop):
    """What a loop's first step (its iterable and first item, or its first test) can change, as
    ``_binds`` says for a statement: a ``for``'s target names when its iterable calls nothing
    (``for p in (W1, b1)``), nothing when a ``while``'s test calls nothing, else None."""
    header = loop.iter if isinstance(loop, ast.For) else loop.test
    if _runs_code(header):
        return None
    return _names(loop.target) if isinstance(loop, ast.For) else ()


def _first_line(stmt):
    # A decorated def runs its decorators first, from their own lines.
    decorators = getattr(stmt, "decorator_list", None)
    return min([stmt.lineno] + [d.lineno for d in decorators]) if decorators else stmt.lineno


def _quiet(stmt, first_of_scope):
    """Statements that run nothing (and a ``__future__`` import or a docstring must stay first)."""
    return (isinstance(stmt, (ast.Global, ast.Nonlocal)) or
            isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__" or
            first_of_scope and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str))


_SCOPES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_COMPOUND = tuple(getattr(ast, name) for name in (
    "FunctionDef", "AsyncFunctionDef", "ClassDef", "For", "AsyncFor", "While", "If", "With", "AsyncWith",
    "Try", "TryStar", "Match") if hasattr(ast, name))


def _add(node, loops, targets, module_level=True):
    """Adds the calls to every statement list under ``node`` (statements only: an expression holds
    no statement, so the user's expressions are never walked); ``module_level``: ``node``'s
    statements run in the module's namespace (not in a function's or a class's)."""
    inner = module_level and not isinstance(node, _SCOPES[1:])
    for field in ("body", "orelse", "finalbody"):
        stmts = getattr(node, field, None)
        if not stmts or not isinstance(stmts[0], ast.stmt):
            continue
        out = []
        for i, stmt in enumerate(stmts):
            loop = isinstance(stmt, (ast.For, ast.While))
            names = _enters(stmt) if loop else None  # (before ``_add`` puts calls in its header)
            if isinstance(stmt, _COMPOUND):  # (a simple statement holds no statement)
                _add(stmt, loops, targets, inner)
            if loop:
                out.append(_statement(_LOOP_CALL, stmt.lineno, stmt, () if names is None else (names,)))
            elif not _quiet(stmt, i == 0 and field == "body" and isinstance(node, _SCOPES)):
                names, around = _binds(stmt, inner), _around_call(stmt)
                more = (names, around) if around is not None else () if names is None else (names,)
                out.append(_statement(_STEP_CALL, _first_line(stmt), stmt, more))
            out.append(stmt)
        setattr(node, field, out)
    for part in getattr(node, "handlers", ()) or getattr(node, "cases", ()):  # try/except, match
        _add(part, loops, targets, inner)
    if isinstance(node, ast.For):
        loops[node.lineno] = node.end_lineno
        targets[node.lineno] = _names(node.target)
        # At the loop's place, where Python reports "not iterable" (no caret under the iterable).
        node.iter = _call(_FOR_CALL, node.lineno, node, node.iter)
    elif isinstance(node, ast.While):
        loops[node.lineno] = node.end_lineno
        node.test = _at(ast.BoolOp(op=ast.And(), values=[_call(_NEXT_CALL, node.lineno, node.test), node.test]), node.test)
        node.orelse.insert(0, _statement(_DONE_CALL, node.lineno, node))


def calls(recorder):
    """The functions behind ``HOOKS``, reporting to ``recorder`` (a ``timeline.Timeline``).

    A failure of the recorder goes to ``recorder.fail``, never to the user's code.
    """
    getframe, line_event = sys._getframe, recorder.line_event

    def step(line, names=None, around=None):
        try:
            line_event(getframe(1), line, STEP, names, around)
        except Exception as exc:
            recorder.fail(exc)

    def loop(line, names=None):
        try:
            line_event(getframe(1), line, ENTER, names)
        except Exception as exc:
            recorder.fail(exc)

    def for_(iterable, line):
        return _iterate(recorder, iter(iterable), line)

    def next_(line):  # a while loop's test: the first one belongs to the step that entered the loop
        try:
            frame, top = getframe(1), recorder.active[-1] if recorder.active else None
            if top is not None and top["first"] and top["frame"] is frame and top["line"] == line:
                top["first"] = False
            else:
                line_event(frame, line, NEXT)
        except Exception as exc:
            recorder.fail(exc)
        return True

    def done(line):
        try:
            recorder.exhausted(getframe(1), line)
        except Exception as exc:
            recorder.fail(exc)

    return step, loop, for_, next_, done


def _iterate(recorder, iterator, line):
    """The items of a for loop, the header's step opened before each next one is asked for."""
    getframe = sys._getframe
    for item in iterator:
        yield item
        if recorder.recording:  # a generator that outlives the run (or the recorder's failure) stays quiet
            try:
                recorder.line_event(getframe(1), line, NEXT)  # frame 1: the loop's, which asks for the item
            except Exception as exc:
                recorder.fail(exc)
        elif recorder.resting is not None:  # resting: counted, as a step and an iteration
            recorder.resting[0] += 1
            recorder.resting[1] = line
            recorder.rested_header(getframe(1), line)
    if recorder.recording:
        try:
            recorder.exhausted(getframe(1), line)
        except Exception as exc:
            recorder.fail(exc)
    elif recorder.resting is not None:
        recorder.rested_header(getframe(1), line, ended=True)


def counting_calls(counter):
    """Functions for ``HOOKS`` that only count statements into ``counter[0]`` and note the line of
    the last in ``counter[1]``: a run past the recorder's budget or store (``Timeline.budget``,
    ``Timeline.limit``) costs a call, an addition and a store each."""
    def step(line, names=None, around=None):
        counter[0] += 1
        counter[1] = line

    def for_(iterable, line):
        return _counted(iter(iterable), counter, line)

    def next_(line):
        counter[0] += 1
        counter[1] = line
        return True

    def done(line):
        pass

    return step, step, for_, next_, done


def _counted(iterator, counter, line):
    """The items of a for loop, its header counted as a step before each next one is asked for."""
    for item in iterator:
        yield item
        counter[0] += 1
        counter[1] = line


def quiet_calls():
    """Functions for ``HOOKS`` that do nothing (after the run: the console may call its functions)."""
    def step(line, names=None, around=None):
        pass

    def for_(iterable, line):
        return iterable

    def next_(line):
        return True

    return step, step, for_, next_, step
