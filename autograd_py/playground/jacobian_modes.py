"""The "forward vs reverse" panel: one Jacobian of the learner's own function, built both ways.

- Forward mode pushes one tangent per *input* element through ``f``: column j is the JVP with
  the one-hot tangent e_j (``torch.func.jvp(f, (x,), (e_j,))``), so n inputs cost n passes.
- Reverse mode runs ``f`` once, then pulls one cotangent per *output* element back: row i is
  the VJP with the one-hot e_i (``torch.autograd.grad(y, x, e_i, retain_graph=True)``), so m
  outputs cost 1 + m passes.

The panel shows both matrices, the passes each way needed, and that they agree.

Example::

    >>> compare({"f": torch.sin, "x": torch.tensor([1., 2.])}, "f", "x")["agree"]
    True
"""
import sys
import warnings

import numpy as np

from .backward import JACOBIAN_LIMIT, NAME, RequestError, _Discard, _tensor, expression, index_label


def _function(namespace, name):
    if not isinstance(name, str) or not NAME.match(name):
        raise RequestError("bad_name", f"function: {name!r} is not a variable name", role="function", name=str(name))
    value = namespace
    for part in name.split("."):  # ``model.0`` is ``model[0]``
        try:
            value = value[part] if isinstance(value, dict) else (
                value[int(part)] if part.isdigit() else getattr(value, part))
        except (KeyError, AttributeError, IndexError, TypeError):
            raise RequestError("no_function", f"function: no function named {name!r}", name=name) from None
    if not callable(value) or isinstance(value, type):
        raise RequestError("not_callable", f"function: {name!r} is not a function", name=name)
    return value


def callables(namespace):
    """The names the panel offers as functions: the user's own functions and nn.Modules."""
    import types
    names = []
    for name, value in namespace.items():
        if name.startswith("_"):
            continue
        if isinstance(value, types.FunctionType) and value.__module__ == "__main__" or (
                hasattr(value, "forward") and hasattr(value, "named_parameters") and not isinstance(value, type)):
            names.append(name)
    return names


def _single_output(y, name):
    from .._tensor import Tensor
    if not isinstance(y, Tensor):
        raise RequestError("not_tensor_output", f"{name}(...) returned {type(y).__name__}, not a Tensor",
                           name=name, type=type(y).__name__)
    return y


def compare(namespace, function_name, input_name):
    """The Jacobian of ``function_name(input)`` with respect to ``input``, by forward and by reverse mode.

    Args:
        namespace (dict): the run's names.
        function_name (str): a function (or module) of one tensor argument.
        input_name (str): the tensor to differentiate at.

    Returns:
        dict: ``{"ok", "function", "input", "out_shape", "in_shape", "forward", "reverse",
        "forward_passes", "reverse_passes", "max_difference", "agree", "row_labels",
        "col_labels", "forward_calls", "reverse_calls"}``; ``forward``/``reverse`` are the m x n
        matrices. A learner's error comes back as ``{"ok": False, "error"}``.
    """
    from .. import autograd
    from .._tensor import _make
    from ..autograd import forward_ad

    f = _function(namespace, function_name)
    x = _tensor(namespace, input_name, "input")
    if x._data.dtype.kind != "f":
        raise RequestError("not_float", f"input: {input_name} is {x.dtype}, not floating point", name=input_name)
    primal = x.detach()
    saved_out = sys.stdout
    try:
        sys.stdout = _Discard()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = _single_output(f(primal), function_name)
            m, n = int(y._data.size), int(x._data.size)
            if m > JACOBIAN_LIMIT or n > JACOBIAN_LIMIT:
                raise RequestError("jacobian_too_large", f"the Jacobian would be {m} x {n}; the view shows at most "
                                   f"{JACOBIAN_LIMIT} x {JACOBIAN_LIMIT}", rows=m, cols=n, limit=JACOBIAN_LIMIT)
            forward = np.zeros((m, n))
            level = forward_ad.enter_dual_level()
            try:
                for j in range(n):
                    e = np.zeros(n, dtype=x._data.dtype)
                    e[j] = 1
                    out = f(forward_ad.make_dual(primal, _make(e.reshape(x._data.shape))))
                    tangent = forward_ad.unpack_dual(_single_output(out, function_name)).tangent
                    if tangent is not None:
                        forward[:, j] = np.asarray(tangent._data, dtype=np.float64).reshape(-1)
            finally:
                forward_ad.exit_dual_level(level=level)
            reverse = np.zeros((m, n))
            leaf = x.detach().requires_grad_()
            y = _single_output(f(leaf), function_name)
            for i in range(m):
                e = np.zeros(m, dtype=y._data.dtype)
                e[i] = 1
                (g,) = autograd.grad(y, leaf, _make(e.reshape(y._data.shape)), retain_graph=True, allow_unused=True)
                if g is not None:
                    reverse[i] = np.asarray(g._data, dtype=np.float64).reshape(-1)
    except RequestError:
        raise
    except Exception as exc:  # the learner's function raised, or an op has no derivative
        return {"ok": False, "error": {"type": type(exc).__name__, "message": str(exc), "lineno": None,
                                       "traceback": f"{type(exc).__name__}: {exc}\n"}}
    finally:
        sys.stdout = saved_out
    out_shape, in_shape = tuple(y._data.shape), tuple(x._data.shape)
    fn, arg = expression(function_name), expression(input_name)
    difference = float(np.max(np.abs(forward - reverse))) if forward.size else 0.0
    scale = max(1.0, float(np.max(np.abs(reverse)))) if reverse.size else 1.0
    return {
        "ok": True, "function": function_name, "input": input_name, "out_shape": list(out_shape),
        "in_shape": list(in_shape), "forward": forward.tolist(), "reverse": reverse.tolist(),
        # reverse mode needs the forward pass that records the graph, then one backward per row
        "forward_passes": n, "reverse_passes": m, "reverse_recording_passes": 1,
        "max_difference": difference, "agree": difference <= 1e-5 * scale,
        "row_labels": [index_label("y", out_shape, i) for i in range(m)],
        "col_labels": [index_label(input_name, in_shape, j) for j in range(n)],
        "forward_calls": [f"torch.func.jvp({fn}, ({arg},), (e_{j},))" for j in range(n)],
        "reverse_calls": [f"y = {fn}({arg})"] + [f"torch.autograd.grad(y, {arg}, e_{i}, retain_graph=True)"
                                                for i in range(m)],
    }
