"""Forward-mode AD: tangents carried beside values, one dual level at a time per user.

Every recorded op already builds a node whose ``backward`` holds one formula per input. Forward
mode reuses that node: ``record`` hands it here when an input carries a tangent, and the node's
``jvp`` pushes the tangents forward. A node marked ``element_wise`` gets its JVP derived from its
backward formula, as derivatives.yaml's ``auto_element_wise`` does: with a diagonal Jacobian, the
VJP of the tangent is the JVP. Other nodes write ``jvp`` next to ``backward``.

Levels: ``torch.autograd.forward_ad`` allows one at a time, as PyTorch does; ``torch.func``
nests them (``jacfwd(jacfwd(f))``). While a level's tangent formula runs, that level and the ones
inside it are switched off, so the formula's own ops carry only the outer levels' tangents.
"""
import itertools
import weakref

import numpy as np

from . import grad_mode

# The active levels, outermost first. Kept in a list so the ops' hot path reads one global.
levels = []
_level_ids = itertools.count()
# Tensors given a tangent at each level, so leaving the level can drop them (weak: no leak).
_holders = {}
# The playground's forward-mode view: ``listener[0](node, inputs, out, level)`` after each op whose
# tangents were pushed (None when nobody is watching, so it costs one test).
listener = [None]

WRONG_SIZE = ("Trying to set a forward gradient that has a different size than that of the original Tensor, this is "
              "not supported. Tensor is of size {} while the given forward gradient is of size {}.")


def check_dual(primal, tangent, size=True):
    """PyTorch's checks on a primal and its tangent: both floating point, and (``size``) one size."""
    for name, t in (("primal", primal), ("tangent", tangent)):
        if t.dtype.np.kind not in "fc":
            raise ValueError(f"Expected {name} to be floating point or complex, but got: {t.dtype}")
    if size and tuple(tangent.shape) != tuple(primal.shape):
        raise RuntimeError(WRONG_SIZE.format(list(primal.shape), list(tangent.shape)))


NO_LEVEL = ("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
            "enter_dual_level() first.")


# The levels torch.autograd.forward_ad made (dual_level): their formulas read each primal through
# _fw_primal's Identity node; torch.func's levels (functorch's own wrappers) do not.
dual_levels = set()


def enter_level(dual=False):
    level = next(_level_ids)
    levels.append(level)
    if dual:
        dual_levels.add(level)
    _holders[level] = []
    return level


def exit_level(level):
    """Leaves ``level``: every tangent taken at it is dropped."""
    levels.remove(level)
    dual_levels.discard(level)
    for ref in _holders.pop(level, ()):
        t = ref()
        if t is not None and t._fw_grads is not None:
            t._fw_grads.pop(level, None)
            if not t._fw_grads:
                t._fw_grads = None


def tangent(t, level=None):
    """The tangent of ``t`` at ``level`` (the innermost active one by default), or None."""
    grads = t._fw_grads
    if grads is None:
        return None
    if level is None:
        if not levels:
            return None
        level = levels[-1]
    return grads.get(level)


def set_tangent(t, value, level):
    if t._fw_grads is None:
        t._fw_grads = {}
    if level not in t._fw_grads:
        _holders[level].append(weakref.ref(t))
    t._fw_grads[level] = value


def has_dual(tensors):
    """True when some tensor in ``tensors`` carries a tangent at an active level (checked only
    while a level is active and outside inference mode, where PyTorch computes no tangents)."""
    if grad_mode._inference[0]:
        return False
    for t in tensors:
        grads = getattr(t, "_fw_grads", None)
        if grads:
            for level in grads:
                if level in levels:
                    return True
    return False


class hidden:
    """Switches off ``level`` and the levels inside it (every level, by default) for a block:
    while a level's tangent formula runs, or a Function's own ``forward``, ops push no tangent
    at those levels."""

    def __init__(self, level=None):
        self.index = 0 if level is None else levels.index(level)

    def __enter__(self):
        self.saved = levels[self.index:]
        del levels[self.index:]

    def __exit__(self, *exc):
        levels.extend(self.saved)


# A list while an in-place op whose operand shares the written memory computes its result: the
# tangent formulas then wait (``propagate`` appends here) until the write is done, so they read
# that operand's new values, as PyTorch's in-place formulas do (``x.mul_(x)``).
deferred = [None]


def propagate(out, node, inputs):
    """Gives ``out`` (a tensor, or a tuple for a multi-output node) its tangent at every active
    level where an input has one, from ``node.jvp``."""
    if deferred[0] is not None:
        deferred[0].append((out, node, inputs))
        return
    for level in tuple(levels):
        tangents = [tangent(t, level) if hasattr(t, "_fw_grads") else None for t in inputs]
        if all(t is None for t in tangents):
            continue
        with hidden(level):
            if grad_mode._state[0] and level in dual_levels:
                from .ops.fw_primal import primals  # the formula reads primals as PyTorch's _fw_primal
                result = node.jvp(tangents, primals(inputs), out)
            else:
                result = node.jvp(tangents, inputs, out)
        if isinstance(out, (tuple, list)):
            for o, r in zip(out, result):
                if r is not None and o._data.dtype.kind in "fc":
                    set_tangent(o, _own(_fitted(r, o, node), node, tangents, level), level)
        elif result is not None:
            set_tangent(out, _own(_fitted(result, out, node), node, tangents, level), level)
        if listener[0] is not None:
            listener[0](node, inputs, out, level)


def _fitted(t, out, node=None):
    """A tangent with the primal's shape: a formula may leave it un-broadcast (``x + y`` with only
    the smaller ``x`` dual)."""
    if t._data.shape != out._data.shape:
        from .ops.shape import expand
        t = expand(t, out._data.shape)
    if t._data.dtype != out._data.dtype and out._data.dtype.kind in "fc" and not getattr(node, "fw_keeps_dtype", False):
        # a backward-derived formula gives the input's dtype (float32 x + float64 y); PyTorch's
        # copy_ alone keeps the source's tangent as it is
        t = t.to(out.dtype)
    return t


def _own(r, node, tangents, level):
    """Only a view op's tangent shares memory with its input's. Another op's formula may hand back
    an input's tangent (clone, ``x + y`` with one dual) or a broadcast of it; PyTorch's formulas make
    fresh memory there, so an in-place op on the output never writes into the input's tangent."""
    if getattr(node, "fw_view", False) or getattr(node, "fw_alias", False):
        return r
    for t in tangents:
        if t is not None and np.may_share_memory(r._data, t._data):
            from .ops.pointwise import clone
            with hidden(level):
                return clone(r)
    return r


def zeros_tangent(t):
    from .ops.base import _make
    return _make(np.zeros(t._data.shape, dtype=t._data.dtype))


def formula_tangents(tangents, inputs, out):
    """The tangents a formula written as derivatives.yaml's ``result:`` reads. PyTorch gives each
    missing tangent an efficient zero tensor and computes every term, so the tangent's ``grad_fn``
    is the formula's last op (``x * 3``'s is AddBackward0, ``x + 2.5``'s AddBackward0). That graph
    shows only when grad mode is on and a primal or tangent requires grad: then missing tangents
    become zero tensors (of the input's shape; 0-dim for a number). Otherwise they stay None and the
    formula skips their terms, which add nothing (a zero tensor's kernels copy the other operand)."""
    if not grad_mode.is_grad_enabled() or not any(
            getattr(x, "requires_grad", False) for x in (*inputs, *tangents, out)):
        return tangents
    from .ops import zerotensor
    from .ops.base import _make
    dtype = out[0]._data.dtype if isinstance(out, (tuple, list)) else out._data.dtype
    return [t if t is not None else zerotensor.mark(_make(np.zeros(getattr(x, "_data", np.empty(())).shape, dtype)))
            for t, x in zip(tangents, inputs)]


_MARK = object()  # an edge marker: "compute this input's formula"


def _only_edge(i, n):
    """Edges that make a backward formula compute input ``i``'s gradient alone."""
    return tuple((_MARK, 0) if j == i else (None, 0) for j in range(n))


def auto_element_wise(node, tangents, inputs, out):
    """The JVP of an elementwise op from its backward formula: for each input with a tangent, the
    formula of that input alone, run with the tangent as the output gradient and the primals in
    place of the saved values; the contributions add up."""
    names = node.args if node.args is not None else ("self", "other")[:len(inputs)]
    from .node_saved import saved_map  # (node_saved imports what imports this module)
    primals = dict(saved_map(node) or {})
    for name, x in zip(names, inputs):
        primals[name] = x
    primals["result"] = out
    real_edges, real_vars = getattr(node, "_next_functions", None), node._vars
    total = None
    try:
        node._vars = primals
        for i, t in enumerate(tangents):
            if t is None:
                continue
            node._next_functions = _only_edge(i, len(inputs))
            part = node.backward(t)  # a smaller tangent broadcasts in the formula, as PyTorch's does
            if isinstance(part, tuple):
                part = part[i]
            if part is not None:
                total = part if total is None else total + part
        if total is not None and not total.requires_grad and grad_mode.is_grad_enabled():
            total = _with_zero_terms(node, tangents, inputs, out, total)
    finally:
        node._vars = real_vars
        if real_edges is None:
            del node._next_functions
        else:
            node._next_functions = real_edges
    return total


def _with_zero_terms(node, tangents, inputs, out, total):
    """PyTorch's formula also has a term for each input without a tangent (a zero tangent that adds
    nothing), and the tangent requires grad when such a term reads a primal that does (``x * w``
    with only ``x`` dual: ``w_t * x``). The terms are built here only for their graph: ``total``
    keeps its values (a zero times an infinite primal stays out, as PyTorch's zero tensor does)."""
    if not any(getattr(x, "requires_grad", False) for x in (*inputs, out)):
        return total
    zero = None
    for i, t in enumerate(tangents):
        if t is not None:
            continue
        node._next_functions = _only_edge(i, len(inputs))
        zero = zeros_tangent(out) if zero is None else zero
        part = node.backward(zero)
        part = part[i] if isinstance(part, tuple) else part
        if part is not None and part.requires_grad:
            from .ops.comparison import where
            return where(zero.bool(), part.to(total.dtype), total)
    return total


def linked(total, primals, sub=False, shape=None):
    """``total``, a formula ``a + b + c`` (``a - c`` with ``sub``) some of whose terms were left out
    because their tangent is missing, joined to the graph of the ``primals`` those terms read.
    PyTorch computes such a term with a zero tensor: it still requires grad when its primal does
    (addcmul's ``tensor1_t * tensor2_p`` with only ``self`` dual), and the formula's last op stays
    the tangent's ``grad_fn``. Values are ``total``'s (``x + -0.0`` and ``x - 0.0`` are ``x``), broadcast
    to ``shape`` (the result's: addcmul's self_t may be smaller than the terms left out)."""
    if total is None or not grad_mode.is_grad_enabled():
        return total
    from .ops.reduction import sum
    part = sum(total) if total.requires_grad else None
    for p in primals:
        if getattr(p, "requires_grad", False):  # summed: any shape links (addmm's mat2 and result)
            part = sum(p) if part is None else part + sum(p).to(part.dtype)
    if part is None:
        return total
    from .ops.base import _make
    from .ops.comparison import where
    mask = _make(np.zeros(total._data.shape if shape is None else shape, dtype=bool))
    zero = where(mask, part.to(total.dtype), 0.0 if sub else -0.0)
    return total - zero if sub else total + zero


def not_implemented(node):
    return NotImplementedError(
        f"Trying to use forward AD with {node.name()} that does not support it because it has not been "
        "implemented yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new"
        "?template=feature-request.yml so that we can prioritize its implementation or submit a PR adding "
        "the implementation to derivatives.yaml")
