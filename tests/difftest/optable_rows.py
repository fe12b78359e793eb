"""Rows of ``tests/op_table.py`` turned into program source, so the generator's vocabulary grows
with the op table and recorded programs stay self-contained (no reference to the table itself).

Each row's ``op`` lambda is read from the table's source and inlined: ``T`` becomes ``torch``,
its parameters the program's variables, and the table's array constants list literals.
"""
import ast
import builtins
import pathlib
import sys

import numpy as np

TESTS = pathlib.Path(__file__).resolve().parent.parent


def _table():
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    import op_table
    return op_table


class _Inline(ast.NodeTransformer):
    def __init__(self, lam, args, constants):
        params = [a.arg for a in lam.args.args]
        self.t_name = params[0]
        self.mapping = dict(zip(params[1:], args))
        self.rest = args[len(params) - 1:]
        self.vararg = lam.args.vararg.arg if lam.args.vararg else None
        self.constants = constants
        self.unknown = False

    def visit_Name(self, node):
        if node.id == self.t_name:
            return ast.copy_location(ast.Name("torch", ast.Load()), node)
        if node.id in self.mapping:
            return ast.copy_location(ast.Name(self.mapping[node.id], ast.Load()), node)
        if node.id == self.vararg:
            return ast.Tuple([ast.Name(n, ast.Load()) for n in self.rest], ast.Load())
        value = self.constants.get(node.id)
        if isinstance(value, np.ndarray):
            return ast.parse(repr(value.tolist()), mode="eval").body
        if not hasattr(builtins, node.id):
            self.unknown = True
        return node


def _lambdas():
    table = _table()
    tree = ast.parse(pathlib.Path(table.__file__).read_text(encoding="utf-8"))
    found = {}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "OpInfo" and len(node.args) > 1
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[1], ast.Lambda)):
            found[node.args[0].value] = node.args[1]
    return found


_CACHE = {}


def rows():
    """``[(row, lambda node)]`` for every op-table row whose op can be written inline."""
    if "rows" not in _CACHE:
        table, lambdas = _table(), _lambdas()
        _CACHE["constants"] = vars(table)
        _CACHE["rows"] = [(row, lambdas[row.name]) for row in table.OPS if row.name in lambdas]
    return _CACHE["rows"]


def call_source(lam, args):
    """The source of ``row.op(torch, *args)`` with ``args`` (variable names) inlined, or None."""
    inliner = _Inline(lam, args, _CACHE["constants"])
    body = inliner.visit(ast.fix_missing_locations(ast.parse(ast.unparse(lam.body), mode="eval")))
    if inliner.unknown:
        return None
    return ast.unparse(body)
