"""``torch.autograd.functional``: jacobian, hessian, vjp, jvp, hvp and vhp."""
import numpy as np

from .. import grad_mode
from .._tensor import Tensor, _make
from .api import grad as autograd_grad
from .batched import batched_vjp


def _as_tuple(x):
    return (x, False) if not isinstance(x, Tensor) else ((x,), True)


def _prepare(inputs, create_graph):
    """Fresh leaves for the inputs, so gradients are taken w.r.t. exactly these values."""
    out = []
    for x in inputs:
        if not isinstance(x, Tensor):
            raise TypeError(f"The inputs given to jacobian must be either a Tensor or a tuple of Tensors but "
                            f"the value at index {len(out)} has type {type(x).__name__}.")
        leaf = x if (create_graph and x._requires_grad) else x.detach().requires_grad_(True)
        out.append(leaf)
    return tuple(out)


def _grad(outputs, inputs, grad_outputs, create_graph, retain_graph=True):
    needs = [o for o in outputs if o._requires_grad]
    if not needs:
        return tuple(None for _ in inputs)
    outs = [o for o in outputs if o._requires_grad]
    gos = [g for o, g in zip(outputs, grad_outputs) if o._requires_grad]
    return autograd_grad(outs, inputs, gos, retain_graph=retain_graph, create_graph=create_graph,
                         allow_unused=True)


def _fill(grads, inputs, strict=False):
    return tuple(g if g is not None else _make(np.zeros_like(x._data)) for g, x in zip(grads, inputs))


def _finish(t, create_graph):
    return t if create_graph else t.detach()


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """Vector-Jacobian product ``vᵀ J`` of ``func`` at ``inputs``.

    Args:
        func (callable): takes Tensors, returns a Tensor or a tuple of Tensors.
        inputs (Tensor or tuple of Tensor): where to evaluate.
        v (Tensor or tuple of Tensor, optional): the vector; may be None for a scalar output.
        create_graph (bool, optional): make the result differentiable. Defaults to ``False``.

    Returns:
        tuple: ``(func_output, vjp)``.
    """
    inputs, single_in = _as_tuple(inputs)
    with grad_mode.enable_grad():
        inputs = _prepare(inputs, create_graph)
        outputs, single_out = _as_tuple(func(*inputs))
        if v is None:
            if len(outputs) != 1 or outputs[0]._data.size != 1:
                raise RuntimeError("The vector v can only be None if the user-provided function returns a "
                                   "single Tensor with a single element.")
            v = (_make(np.ones_like(outputs[0]._data)),)
        else:
            v, _ = _as_tuple(v)
        grads = _fill(_grad(outputs, inputs, v, create_graph), inputs)
    outputs = tuple(_finish(o, create_graph) for o in outputs)
    grads = tuple(_finish(g, create_graph) for g in grads)
    return (outputs[0] if single_out else outputs), (grads[0] if single_in else grads)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """Jacobian-vector product ``J v``, computed with the double-backward trick.

    Returns:
        tuple: ``(func_output, jvp)``.
    """
    inputs, single_in = _as_tuple(inputs)
    with grad_mode.enable_grad():
        inputs = _prepare(inputs, create_graph)
        outputs, single_out = _as_tuple(func(*inputs))
        if v is None:
            if len(inputs) != 1 or inputs[0]._data.size != 1:
                raise RuntimeError("The vector v can only be None if the input to the user-provided function "
                                   "is a single Tensor with a single element.")
            v = (_make(np.ones_like(inputs[0]._data)),)
        else:
            v, _ = _as_tuple(v)
        # u ↦ uᵀJ is linear in u; differentiating <uᵀJ, v> w.r.t. u gives J v.
        dummies = tuple(_make(np.zeros_like(o._data)).requires_grad_(True) for o in outputs)
        vjps = _fill(_grad(outputs, inputs, dummies, create_graph=True), inputs)
        pairs = [(g, vv) for g, vv in zip(vjps, v) if g._requires_grad]
        if pairs:
            result = autograd_grad([g for g, _ in pairs], dummies, [vv for _, vv in pairs],
                                   create_graph=create_graph, allow_unused=True)
        else:
            result = (None,) * len(dummies)
        result = _fill(result, outputs)
    outputs = tuple(_finish(o, create_graph) for o in outputs)
    result = tuple(_finish(r, create_graph) for r in result)
    return (outputs[0] if single_out else outputs), (result[0] if single_out else result)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``, one reverse pass per output element.

    Args:
        func (callable): takes Tensors, returns a Tensor or a tuple of Tensors.
        inputs (Tensor or tuple of Tensor): where to evaluate.
        create_graph (bool, optional): make the result differentiable. Defaults to ``False``.
        vectorize (bool, optional): compute all rows in one batched backward pass.

    Returns:
        Tensor, or nested tuples of Tensors: ``J[i][j]`` has shape ``output_i.shape + input_j.shape``.

    Example::

        >>> torch.autograd.functional.jacobian(lambda x: x ** 2, torch.tensor([1., 2.]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    if strategy != "reverse-mode":
        raise NotImplementedError("autograd_py computes Jacobians in reverse mode only")
    inputs, single_in = _as_tuple(inputs)
    with grad_mode.enable_grad():
        inputs = _prepare(inputs, create_graph)
        outputs, single_out = _as_tuple(func(*inputs))
        rows = [_jacobian_rows(out, inputs, create_graph, vectorize) for out in outputs]
    result = []
    for out, per_input in zip(outputs, rows):
        blocks = []
        for x, block in zip(inputs, per_input):
            shape = out._data.shape + x._data.shape
            if create_graph or block._data.shape != shape:
                block = block.reshape(shape)  # a view to record, or a shape to make
            blocks.append(_finish(block, create_graph))
        result.append(blocks[0] if single_in else tuple(blocks))
    return result[0] if single_out else tuple(result)


def _jacobian_rows(out, inputs, create_graph, vectorize):
    """For each input, a (out.numel(), input.numel()) matrix."""
    n = out._data.size
    if not out._requires_grad:
        return [_make(np.zeros((n, x._data.size), dtype=x._data.dtype)) for x in inputs]
    if vectorize:
        eye = np.eye(n, dtype=out._data.dtype)
        grads = batched_vjp(out, inputs, _make(eye if out._data.ndim == 1 else eye.reshape((n,) + out._data.shape)),
                            create_graph)
        # rows of a 1-D input are its gradients as they are: their reshape would be a view of the same
        # shape and strides, which the caller's detach() makes indistinguishable from them
        return [g.reshape(n, -1) if create_graph or g._data.ndim != 2 else g for g in
                (g if g is not None else _make(np.zeros((n,) + x._data.shape, x._data.dtype)) for g, x in zip(grads, inputs))]
    from ..ops.joining import stack
    per_input = [[] for _ in inputs]
    for j in range(n):
        onehot = np.zeros(n, dtype=out._data.dtype)
        onehot[j] = 1
        grads = autograd_grad(out, inputs, _make(onehot.reshape(out._data.shape)), retain_graph=True,
                              create_graph=create_graph, allow_unused=True)
        for k, (g, x) in enumerate(zip(grads, inputs)):
            per_input[k].append((g if g is not None else _make(np.zeros_like(x._data))).reshape(-1))
    return [stack(rows) if rows else _make(np.zeros((0, x._data.size))) for rows, x in zip(per_input, inputs)]


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False, outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function: the Jacobian of its gradient.

    Example::

        >>> torch.autograd.functional.hessian(lambda x: (x ** 3).sum(), torch.tensor([1., 2.]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    inputs_t, single_in = _as_tuple(inputs)

    def gradient(*xs):
        out = func(*xs)
        if not isinstance(out, Tensor) or out._data.size != 1:
            raise RuntimeError("The function given to hessian should return a single Tensor containing a "
                               "single element.")
        grads = autograd_grad(out, xs, create_graph=True, allow_unused=True)
        grads = _fill(grads, xs)
        return grads[0] if single_in else grads

    return jacobian(gradient, inputs, create_graph=create_graph, vectorize=vectorize)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """Vector-Hessian product ``vᵀ H``. Returns ``(func_output, vhp)``."""
    inputs_t, single_in = _as_tuple(inputs)
    with grad_mode.enable_grad():
        xs = _prepare(inputs_t, create_graph)
        out = func(*xs)
        if not isinstance(out, Tensor) or out._data.size != 1:
            raise RuntimeError("The Tensor returned by the function given to hvp should contain a single element")
        grads = _fill(autograd_grad(out, xs, create_graph=True, allow_unused=True), xs)
        v_t, _ = _as_tuple(v) if v is not None else ((_make(np.ones_like(xs[0]._data)),), True)
        result = _fill(_grad(grads, xs, v_t, create_graph), xs)
    result = tuple(_finish(r, create_graph) for r in result)
    return _finish(out, create_graph), (result[0] if single_in else result)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """Hessian-vector product ``H v`` (equal to ``vᵀ H`` since H is symmetric). Returns ``(func_output, hvp)``."""
    return vhp(func, inputs, v, create_graph, strict)
