"""Interactive backward and the Jacobian view of the playground, from the page's JSON requests.

The page says *what* to do (``{"root": "y", "gradient": {"kind": "onehot", "index": 2},
"retain_graph": true}``); this module checks the request and writes the Python the learner
would write (``y.backward(gradient=torch.tensor([0., 0., 1.]), retain_graph=True)``), which the
session then runs and echoes, so the learner sees the real API. The Jacobian is built the way
the lessons build it: one backward per row with a one-hot ``grad_outputs`` and
``retain_graph=True``, through ``autograd.grad`` so no ``.grad`` is touched.

Example::

    >>> plan = plan_backward({"y": y}, {"root": "y", "gradient": {"kind": "ones"}})
    >>> plan.source
    'y.backward(gradient=torch.ones_like(y))'
"""
import ast
import re
import sys
import warnings

import numpy as np

from . import graph
from .views import raising_node, tensor_by_name

# A graph name: ``x``, ``model.weight``, or ``model.0.weight`` (a parameter of an nn.Sequential).
NAME = re.compile(r"[A-Za-z_]\w*(\.([A-Za-z_]\w*|\d+))*\Z")


def expression(name):
    """The Python that reads a graph name: ``model.0.weight`` is ``model[0].weight``."""
    return re.sub(r"\.(\d+)(?=\.|\Z)", r"[\1]", name)
LITERAL_LIMIT = 64  # a one-hot gradient up to this size is written out as a literal
CUSTOM_LIMIT = 4096  # most numbers a typed gradient may have
CUSTOM_CHARS = 100_000
JACOBIAN_LIMIT = 64  # most rows and most columns of a Jacobian the view builds


class RequestError(ValueError):
    """A request the page shows as a message; nothing was run and nothing changed.

    Args:
        code (str): a stable key the page translates (``"vector_size"``, ...).
        message (str): the English text.
        **params: the numbers and names the translated text needs.
    """

    def __init__(self, code, message, **params):
        super().__init__(message)
        self.code = code
        self.params = params

    def to_json(self):
        return {"type": "RequestError", "code": self.code, "message": str(self), "params": self.params,
                "lineno": None, "traceback": f"{self}\n"}


def _tensor(namespace, name, role):
    if not isinstance(name, str) or not NAME.match(name):
        raise RequestError("bad_name", f"{role}: {name!r} is not a variable name", role=role, name=str(name))
    t = tensor_by_name(namespace, name)
    if t is None:
        raise RequestError("no_tensor", f"there is no tensor named {name}", role=role, name=name)
    return t


def _flag(request, key):
    value = request.get(key, False)
    if not isinstance(value, bool):
        raise RequestError("bad_flag", f"{key} must be true or false", flag=key)
    return value


def _num(v):
    """A float as PyTorch prints literals: ``1.``, ``-0.5``, ``1e-05``."""
    text = repr(float(v))
    return text[:-1] if text.endswith(".0") else text


def literal(values, shape, dtype_suffix=""):
    """``torch.tensor(...)`` source for ``values`` laid out in ``shape``."""
    arr = np.asarray(values, dtype=np.float64).reshape(shape)
    if arr.ndim == 0:
        body = _num(arr)
    else:
        body = re.sub(r"-?\d+(\.\d*)?(e[-+]?\d+)?|nan|inf", lambda m: _num(m.group(0)), repr(arr.tolist()))
    return f"torch.tensor({body}{dtype_suffix})"


def index_label(name, shape, flat):
    """``y[1, 2]`` for flat index 5 of a (2, 3) tensor; just ``y`` for a scalar."""
    if not shape:
        return name
    idx = np.unravel_index(flat, shape)
    return f"{name}[{', '.join(str(int(i)) for i in idx)}]"


def parse_vector(text, shape):
    """Reads the numbers a learner typed for a gradient of ``shape``.

    Accepts a Python literal (``[[1, 2], [3, 4]]``, ``0.5``) or numbers separated by commas or
    spaces; any nesting is fine as long as the count is right.

    Returns:
        numpy.ndarray: float64 values in ``shape``.

    Raises:
        RequestError: unreadable text, a non-number, inf/nan, or the wrong count.
    """
    numel = int(np.prod(shape, dtype=np.int64))
    if not isinstance(text, str) or not text.strip():
        raise RequestError("vector_empty", "type the gradient's numbers first", count=numel)
    if len(text) > CUSTOM_CHARS:
        raise RequestError("vector_syntax", "the gradient text is too long", text=text[:40])
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        parts = [p for p in re.split(r"[\s,;\[\]()]+", text.strip()) if p]
        try:
            value = [ast.literal_eval(p) for p in parts]
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            raise RequestError("vector_syntax", f"could not read numbers from {text.strip()[:40]!r}",
                               text=text.strip()[:40]) from None
    flat, stack = [], [value]
    while stack:  # flatten without recursion, keeping the order
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            flat.append(float(item))
        else:
            raise RequestError("vector_item", f"{item!r} is not a number", item=repr(item)[:40])
        if len(flat) > CUSTOM_LIMIT:
            break
    if len(flat) != numel:
        raise RequestError("vector_size", f"expected {numel} numbers for shape {tuple(shape)}, got {len(flat)}",
                           expected=numel, got=len(flat), shape=list(shape))
    arr = np.asarray(flat, dtype=np.float64)
    if not np.isfinite(arr).all():
        raise RequestError("vector_nonfinite", "the gradient must not contain inf or nan")
    return arr.reshape(shape)


class BackwardPlan:
    """What an interactive backward will run: the source and the gradient it passes."""

    def __init__(self, root_name, root, source, gradient, onehot):
        self.root_name = root_name
        self.root = root
        self.source = source
        self.gradient = gradient  # float64 ndarray in the root's shape
        self.onehot = onehot  # flat index for a one-hot gradient, else None


def _dtype_suffix(t):
    name = repr(t.dtype)
    return "" if name == "torch.float32" else f", dtype={name}"


def plan_backward(namespace, request):
    """Checks a backward request and writes the call it stands for.

    Args:
        namespace (dict): the session's names.
        request (dict): ``{"root", "gradient": {"kind": "ones"|"onehot"|"custom", "index",
            "values"}, "retain_graph", "create_graph"}``.

    Returns:
        BackwardPlan

    Raises:
        RequestError: a bad name, index, vector or flag; nothing has run.
    """
    root_name = request.get("root")
    root = _tensor(namespace, root_name, "root")
    shape = tuple(root._data.shape)
    numel = int(root._data.size)
    spec = request.get("gradient") or {"kind": "ones"}
    kind = spec.get("kind") if isinstance(spec, dict) else None
    retain, create = _flag(request, "retain_graph"), _flag(request, "create_graph")
    lines, onehot, args = [], None, []
    if kind == "ones":
        gradient = np.ones(shape)
        if shape:
            args.append(f"gradient=torch.ones_like({expression(root_name)})")
    elif kind == "onehot":
        index = spec.get("index")
        if isinstance(index, list) and all(isinstance(i, int) for i in index) and len(index) == len(shape):
            index = int(np.ravel_multi_index(index, shape)) if all(
                0 <= i < n for i, n in zip(index, shape)) else -1
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < max(numel, 1):
            raise RequestError("bad_index", f"one-hot index {spec.get('index')!r} is outside {root_name} "
                               f"(it has {numel} elements)", index=str(spec.get("index")), count=numel)
        onehot = index
        gradient = np.zeros(numel)
        gradient[index] = 1.0
        gradient = gradient.reshape(shape)
        if numel <= LITERAL_LIMIT:
            args.append(f"gradient={literal(gradient, shape, _dtype_suffix(root))}")
        else:
            where = index_label("_gradient", shape, index)
            lines += [f"_gradient = torch.zeros_like({expression(root_name)})", f"{where} = 1.0"]
            args.append("gradient=_gradient")
    elif kind == "custom":
        if numel > CUSTOM_LIMIT:
            raise RequestError("too_large", f"{root_name} has {numel} elements, too many to type",
                               count=numel, limit=CUSTOM_LIMIT)
        gradient = parse_vector(spec.get("values"), shape)
        args.append(f"gradient={literal(gradient, shape, _dtype_suffix(root))}")
    else:
        raise RequestError("bad_kind", f"unknown gradient kind {kind!r}", kind=str(kind))
    if retain:
        args.append("retain_graph=True")
    if create:
        args.append("create_graph=True")
    if _needs_torch_import(namespace, lines + args):
        lines.insert(0, "import torch")
    lines.append(f"{expression(root_name)}.backward({', '.join(args)})")
    if onehot is not None and numel > LITERAL_LIMIT:
        lines.append("del _gradient")
    return BackwardPlan(root_name, root, "\n".join(lines), gradient, onehot)


def _needs_torch_import(namespace, parts):
    if not any("torch." in p for p in parts):
        return False
    return namespace.get("torch") is not sys.modules.get("torch")


def watched_tensor(namespace, name):
    """The tensor whose ``.grad`` change an interactive backward reports, or None."""
    return None if name in (None, "") else _tensor(namespace, name, "watch")


def grad_change_report(plan, name, watched, delta, known_jacobian):
    """What a backward did to the watched tensor's ``.grad``, for the Jacobian view.

    Args:
        plan (BackwardPlan): the backward that ran.
        name (str): the watched tensor's name.
        watched (Tensor): the watched tensor.
        delta (numpy.ndarray or None): its ``.grad`` after minus before.
        known_jacobian (tuple or None): ``(output, input, matrix)`` of the Jacobian on show.

    Returns:
        dict: ``grad_delta``; ``jacobian_row`` for a one-hot gradient (row k of the Jacobian is
        what a one-hot at k adds to ``.grad``); ``vjp_check`` comparing the change with vᵀJ when
        the Jacobian of this root w.r.t. the watched tensor is known.
    """
    if delta is None:
        return {}
    flat = delta.reshape(-1)
    report = {"grad_delta": {"tensor": name, "values": flat.tolist()}}
    if plan.onehot is not None:
        report["jacobian_row"] = {"output": plan.root_name, "input": name, "row": plan.onehot,
                                  "values": flat.tolist()}
    if known_jacobian is not None and known_jacobian[0] is plan.root and known_jacobian[1] is watched:
        v = plan.gradient.reshape(-1)
        vjp = v @ known_jacobian[2]
        report["vjp_check"] = {"output": plan.root_name, "input": name, "v": v.tolist(), "vjp": vjp.tolist(),
                               "delta": flat.tolist(), "match": bool(np.allclose(vjp, flat, rtol=1e-4, atol=1e-5))}
    return report


class _Discard:
    """Swallows what user hooks print while the Jacobian view differentiates."""

    def write(self, text):
        return len(text)

    def flush(self):
        pass


def jacobian(namespace, output_name, input_name):
    """The full Jacobian d output / d input, one ``autograd.grad`` per row.

    Each row k is ``autograd.grad(output, input, grad_outputs=e_k, retain_graph=True)``: the
    graph is kept and no ``.grad`` changes (every named tensor's ``.grad`` is put back anyway,
    since ``retain_grad`` tensors are filled by any pass). Hooks run but print nowhere.

    Returns:
        dict: ``{"ok", "output", "input", "out_shape", "in_shape", "matrix", "row_labels",
        "col_labels", "calls"}``, or ``{"ok": False, "error"}``.
    """
    from .. import autograd
    from .._tensor import _make

    out = _tensor(namespace, output_name, "output")
    inp = _tensor(namespace, input_name, "input")
    m, n = int(out._data.size), int(inp._data.size)
    if m > JACOBIAN_LIMIT or n > JACOBIAN_LIMIT:
        raise RequestError("jacobian_too_large", f"the Jacobian would be {m} x {n}; the view shows at most "
                           f"{JACOBIAN_LIMIT} x {JACOBIAN_LIMIT}", rows=m, cols=n, limit=JACOBIAN_LIMIT)
    out_shape, in_shape = tuple(out._data.shape), tuple(inp._data.shape)
    matrix = np.zeros((m, n))
    kept = [(t, t._grad) for _, t in graph.named_tensors(namespace)]
    saved_out = sys.stdout
    try:
        sys.stdout = _Discard()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for k in range(m):
                seed = np.zeros(m, dtype=out._data.dtype)
                seed[k] = 1
                v = _make(seed.reshape(out_shape))
                (g,) = autograd.grad(out, inp, grad_outputs=v, retain_graph=True, allow_unused=True)
                if g is not None:
                    matrix[k] = np.asarray(g._data, dtype=np.float64).reshape(-1)
    except Exception as exc:  # PyTorch's own error: not differentiable, graph freed, ...
        node = raising_node(exc)
        return {"ok": False, "error": {"type": type(exc).__name__, "message": str(exc), "lineno": None,
                                       "traceback": f"{type(exc).__name__}: {exc}\n"},
                "failed_node": {"id": f"f{id(node)}", "name": type(node).__name__, "how": "traceback"}
                if node is not None else None}
    finally:
        sys.stdout = saved_out
        for t, g in kept:
            t._grad = g
    calls = []
    for k in range(m):
        seed = np.zeros(m)
        seed[k] = 1
        grad_outputs = literal(seed, out_shape, _dtype_suffix(out)) if m <= LITERAL_LIMIT else f"e_{k}"
        calls.append(f"torch.autograd.grad({expression(output_name)}, {expression(input_name)}, grad_outputs={grad_outputs}, "
                     "retain_graph=True)")
    return {"ok": True, "output": output_name, "input": input_name, "out_shape": list(out_shape),
            "in_shape": list(in_shape), "matrix": matrix.tolist(),
            "row_labels": [index_label(output_name, out_shape, k) for k in range(m)],
            "col_labels": [index_label(input_name, in_shape, j) for j in range(n)], "calls": calls,
            "_tensors": (out, inp, matrix)}
