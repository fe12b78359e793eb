"""Autograd under ``vmap``: gradients of every example at once, from one backward pass.

The engine works on physical tensors. ``autograd.grad`` on batched tensors therefore lifts every
output, cotangent and input to all active vmap levels (an unbatched tensor is expanded along each
level it lacks), unwraps them to their physical values, runs one backward pass and wraps the
gradients back. Since an example's output depends only on that example's inputs, the gradient of
the summed physical output with respect to one example's copy of an input is that example's own
gradient: ``vmap(grad(loss), in_dims=(None, 0, 0))`` gives per-sample gradients.
"""
from .._tensor import Tensor
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
    p, have = chain(x)
    active = [lv for lv, _, _ in levels]
    if have == active:
        return x
    for i, (lv, size, _) in enumerate(levels):
        if lv not in have:
            p = p.unsqueeze(i)
            p = p.expand(*p.shape[:i], size, *p.shape[i + 1:])
    for lv in active:
        p = BatchedTensor(p, lv)
    return p


def physical(x):
    return chain(lift(x))[0] if isinstance(x, Tensor) else x


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
    phys_outs = [physical(o) for o in outs]
    phys_gos = []
    for o, g, p in zip(outs, gos, phys_outs):
        if g is None and isinstance(o, BatchedTensor) and o.dim() == 0:
            from ..creation import ones_like
            phys_gos.append(ones_like(p))  # the implicit 1 of a scalar output, once per example
        else:
            phys_gos.append(physical(g) if g is not None else None)
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
