"""Autograd under ``vmap``: gradients of every example at once, from one backward pass.

The engine works on physical tensors. ``autograd.grad`` on batched tensors therefore lifts every
output, cotangent and input to all active vmap levels (an unbatched tensor is expanded along each
level it lacks), unwraps them to their physical values, runs one backward pass and wraps the
gradients back. Since an example's output depends only on that example's inputs, the gradient of
the summed physical output with respect to one example's copy of an input is that example's own
gradient: ``vmap(grad(loss), in_dims=(None, 0, 0))`` gives per-sample gradients.

A graph built outside a vmap level can still meet cotangents batched at it (``vmap(vjp_fn)``
over a basis, the Jacobian rows of the torch.func tutorials). Each example then needs its own
backward pass through the same graph: those levels become leading batch dims of the gradients,
and one pass carries them all (see ``_grads_batched``).
"""
import numpy as np

from .._tensor import Tensor, _make
from .batched import BatchedTensor, levels


def chain(x):
    """``(physical, [levels, outermost first])`` of a possibly nested BatchedTensor."""
    found = []
    while isinstance(x, BatchedTensor):
        found.insert(0, x._level)
        x = x._value
    return x, found


def lift(x):
    """``x`` batched at every active level: a missing level is an expanded (stride-0) dim."""
    if not isinstance(x, Tensor) or not levels:
        return x
    active = [lv for lv, _, _ in levels]
    if chain(x)[1] == active:
        return x
    return wrapped(_lift_to(x, active), active)


def lifted_physical(x):
    """The physical value of ``x`` with a dim for every active level."""
    return _lift_to(x, [lv for lv, _, _ in levels]) if isinstance(x, Tensor) else x


def any_batched(*groups):
    for group in groups:
        if isinstance(group, Tensor):
            group = (group,)
        for x in group or ():
            if isinstance(x, BatchedTensor):
                return True
    return False


def grad(original, outputs, inputs, grad_outputs, kwargs):
    """``autograd.grad`` on batched tensors (see the module docstring)."""
    single_out = isinstance(outputs, Tensor)
    outs = [outputs] if single_out else list(outputs)
    ins = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    if grad_outputs is None or isinstance(grad_outputs, Tensor):
        gos = [grad_outputs] * len(outs) if grad_outputs is None else [grad_outputs]
    else:
        gos = list(grad_outputs)
    extra = _cotangent_only_levels(outs, gos)
    if extra:
        return _grads_batched(original, outs, ins, gos, extra, kwargs)
    phys_outs = [lifted_physical(o) for o in outs]
    phys_gos = []
    for o, g, p in zip(outs, gos, phys_outs):
        if g is None and o.dim() == 0 and p.dim() > 0:  # batched, or an unbatched output lifted
            # the implicit 1 of a scalar output, once per example
            phys_gos.append(_make(np.ones(p._data.shape, p._data.dtype)))
        else:
            phys_gos.append(lifted_physical(g) if g is not None else None)
    # Inputs are not lifted: an expanded copy made now would not be in the graph. GradLevel lifts
    # the inputs it differentiates before the function runs.
    chains = [chain(x) for x in ins]
    grads = original(phys_outs, [c[0] for c in chains], phys_gos, **kwargs)
    return tuple(wrapped(g, c[1]) if g is not None else None for g, c in zip(grads, chains))


def wrapped(p, found):
    """``p`` wrapped back at the vmap levels ``found`` (outermost first), as ``chain`` took it apart."""
    for lv in found:
        p = BatchedTensor(p, lv)
    return p


def _cotangent_only_levels(outs, gos):
    """Active levels some cotangent is batched at but no output is (outermost first)."""
    out_levels = {lv for o in outs for lv in chain(o)[1]}
    cot_levels = {lv for g in gos if isinstance(g, Tensor) for lv in chain(g)[1]}
    return [lv for lv, _, _ in levels if lv in cot_levels and lv not in out_levels]


def _lift_to(x, want):
    """The physical value of ``x`` with one dim per level of ``want`` (expanded where it lacks one)."""
    p, have = chain(x)
    sizes = {lv: size for lv, size, _ in levels}
    for i, lv in enumerate(want):
        if lv not in have:
            if i:
                p = p.unsqueeze(i)
                p = p.expand(*p.shape[:i], sizes[lv], *p.shape[i + 1:])
            else:  # a new leading dim: one expand, no unsqueeze view before it
                p = p.expand(sizes[lv], *p.shape)
    return p


def _grads_batched(original, outs, ins, gos, extra, kwargs):
    """``autograd.grad`` whose cotangents carry the vmap levels ``extra`` that the graph lacks.

    The cotangents' ``extra`` dims go in front, flattened into one batch dim of the gradients; a
    graph whose nodes all take batched gradients runs once, any other once per example.
    """
    from ..autograd.batched import _graph_supports_batching
    from ..creation import ones_like, zeros_like
    from ..ops.joining import stack
    active = [lv for lv, _, _ in levels]
    graph = [lv for lv in active if any(lv in chain(o)[1] for o in outs)]
    full = [lv for lv in active if lv in graph or lv in extra]
    sizes = {lv: size for lv, size, _ in levels}
    ext_sizes = [sizes[lv] for lv in extra]
    n = 1
    for size in ext_sizes:
        n *= size
    phys_outs = [_lift_to(o, graph) for o in outs]
    phys_gos = []
    for o, g in zip(phys_outs, gos):
        if g is None:
            g = ones_like(o)  # a scalar output's implicit 1
        p = _lift_to(g, full)
        front = [full.index(lv) for lv in extra]
        rest = [i for i in range(p.dim()) if i not in front]
        phys_gos.append(p.permute(*front, *rest).reshape(n, *o.shape))
    chains = [chain(x) for x in ins]
    phys_ins = [c[0] for c in chains]
    create = bool(kwargs.get("create_graph"))
    keep = kwargs.get("retain_graph")
    keep = create if keep is None else keep
    roots = [o for o in phys_outs if o._grad_fn is not None]
    if not create and roots and all(_graph_supports_batching(o._grad_fn) for o in roots):
        grads = _one_pass(phys_outs, phys_ins, phys_gos, keep)
    else:
        per_row = [original(phys_outs, phys_ins, [g[k] for g in phys_gos],
                            **dict(kwargs, retain_graph=True if k < n - 1 else keep, allow_unused=True))
                   for k in range(n)]
        grads = [None if all(r[i] is None for r in per_row) else
                 stack([zeros_like(x) if r[i] is None else r[i] for r in per_row])
                 for i, x in enumerate(phys_ins)]
    result = []
    for i, (g, (x, have)) in enumerate(zip(grads, chains)):
        if g is None:
            if kwargs.get("materialize_grads"):
                g = zeros_like(x).unsqueeze(0).expand(n, *x.shape).contiguous()
            elif not kwargs.get("allow_unused"):
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in "
                                   "the graph. Set allow_unused=True if this is the desired behavior.")
            else:
                result.append(None)
                continue
        g = g.reshape(*ext_sizes, *x.shape)
        order = extra + have
        want = [lv for lv in active if lv in order]
        g = g.permute(*[order.index(lv) for lv in want], *range(len(order), g.dim()))
        result.append(wrapped(g, want))
    return tuple(result)


def _one_pass(outs, ins, gos, keep):
    from .. import engine
    from ..ops import base
    pairs = [(o, g) for o, g in zip(outs, gos) if o._grad_fn is not None or o._requires_grad]
    base.batch_ndim[0] = 1
    try:
        grads = engine.run_backward([o for o, _ in pairs], [g for _, g in pairs], keep_graph=keep,
                                    create_graph=False, inputs=list(ins), accumulate=False)
    finally:
        base.batch_ndim[0] = 0
    return [g if g is None or g._grad_fn is None else g.detach() for g in grads]
