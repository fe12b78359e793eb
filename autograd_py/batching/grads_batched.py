"""``torch.autograd.grad(..., is_grads_batched=True)``: one vector-Jacobian product per row of
batched ``grad_outputs``, computed as PyTorch does it, with the gradient call under ``vmap`` (one
backward pass where every node of the graph takes batched gradients).

Example::

    >>> x = torch.tensor([1., 2., 3.], requires_grad=True)
    >>> torch.autograd.grad(x ** 2, x, torch.eye(3), is_grads_batched=True)   # the Jacobian's rows
    (tensor([[2., 0., 0.],
            [0., 4., 0.],
            [0., 0., 6.]]),)
"""
from .._tensor import Tensor

BATCHED_SHAPE_MESSAGE = (
    "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the batch dimension. "
    "The sizes of the remaining dimensions are expected to match the shape of corresponding output, but a "
    "mismatch was detected: grad_output[{i}] has a shape of {grad} and output[{i}] has a shape of {out}. If you "
    "only want some tensors in `grad_output` to be considered batched, consider using vmap.")


def _batched_grad_outputs(outputs, grad_outputs):
    """PyTorch's _make_grads with is_grads_batched: the first dim of each given grad_output is the
    batch; a missing one is the implicit 1 of a scalar output (which then has no dim to batch)."""
    from ..creation import ones_like
    from .._tensor import Size
    out = []
    for i, (o, g) in enumerate(zip(outputs, grad_outputs)):
        if isinstance(g, Tensor):
            first = g[0]  # a 0-dim grad_output fails here, with PyTorch's IndexError
            if tuple(first.shape) != tuple(o.shape):
                # PyTorch slices the batch dim off twice in this message (grad[0].shape[1:])
                raise RuntimeError(BATCHED_SHAPE_MESSAGE.format(i=i, grad=Size(first.shape[1:]), out=o.shape))
            out.append(g)
        elif g is None:
            if o.requires_grad:
                if o.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                out.append(ones_like(o))
            else:
                out.append(None)
        else:
            raise TypeError("gradients can be either Tensors or None, but got " + type(g).__name__)
    return out


def grad(original, outputs, inputs, grad_outputs, retain_graph, create_graph, allow_unused, materialize_grads):
    """``original`` (``autograd.grad``) once per batch row of ``grad_outputs``, vectorised."""
    from .vmap import vmap
    from ..creation import zeros_like
    gos = _batched_grad_outputs(outputs, grad_outputs)
    sizes = []
    for g in gos:
        if g is not None:
            if not g.dim():
                raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, but that input "
                                 "is a Tensor of dimensionality 0 so expected in_dim to satisfy 0 <= in_dim < 0.")
            sizes.append(g.shape[0])
    if any(s != sizes[0] for s in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")

    unused = []

    def vjp(*rows):
        grads = original(outputs, inputs, list(rows), retain_graph=retain_graph, create_graph=create_graph,
                         allow_unused=allow_unused)
        unused[:] = [g is None for g in grads]  # None passes through, as PyTorch's allow_none_pass_through
        return tuple(g for g in grads if g is not None)
    found = iter(vmap(vjp, in_dims=tuple(None if g is None else 0 for g in gos))(*gos))
    result = [None if none else next(found) for none in unused]
    if materialize_grads:  # PyTorch's zeros here are not batched
        result = tuple(r if r is not None else zeros_like(x, requires_grad=create_graph)
                       for r, x in zip(result, inputs))
    return tuple(result)
