"""Reverse-mode transforms of ``torch.func``: ``grad``, ``grad_and_value``, ``vjp``, ``jacrev``.

Each call runs ``func`` once, recording the usual graph, then asks the engine for the gradients
(one backward pass per output row for ``jacrev``, batched into one where the graph allows). The
backward pass is recorded (``create_graph``) only when its result must stay differentiable, for
an enclosing transform or an outer ``backward``, so ``grad(grad(f))`` and ``jacfwd(jacrev(f))``
compose.
"""
import functools

import numpy as np

from ..batching.dispatch import call_user  # the user's function, batched and counted as transformed
from .. import forward_mode, grad_mode
from .._tensor import Tensor
from ..autograd.api import grad as autograd_grad
from ..batching.batched import levels as vmap_levels
from ._args import assert_non_empty_tensor_output, error_if_complex, slice_argnums
from ._levels import GradLevel, needs_graph
from ._pytree import tree_flatten, tree_leaves, tree_map, tree_unflatten, treespec_pprint


def _zeros_like(t):
    from autograd_py import zeros_like  # the public op: under vmap it batches
    return zeros_like(t)


def _tracked(o, inputs):
    """Whether the output ``o`` requires grad at the transform's level: it has history, or is one
    of the inputs. A view made under no_grad requires grad only through its base, outside."""
    if not o.requires_grad:
        return False
    if o.grad_fn is not None:
        return True
    from ..batching.autograd_bridge import chain
    p = chain(o)[0]
    return p._base is None or any(p is chain(x)[0] for x in inputs)


def _autograd_grad(outputs, inputs, grad_outputs=None, retain_graph=False, create_graph=True):
    """``autograd.grad`` over the outputs that require grad; zeros for inputs none of them reach."""
    if grad_outputs is None:
        pairs = [(o, None) for o in outputs if _tracked(o, inputs)]
    else:
        pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if _tracked(o, inputs)]
    if not pairs:
        return tuple(_zeros_like(x) for x in inputs)
    outs = [o for o, _ in pairs]
    gos = None if grad_outputs is None else [g for _, g in pairs]
    grads = autograd_grad(outs, inputs, gos, retain_graph=retain_graph, create_graph=create_graph,
                          allow_unused=True)
    return tuple(_zeros_like(x) if g is None else g for g, x in zip(grads, inputs))


def _differentiable_args(level, args, argnums):
    """``args`` with the ones at ``argnums`` (all when None) replaced by the level's inputs."""
    if argnums is None:
        diff = tree_map(level.differentiable, args)
        return diff, diff
    picked = slice_argnums(args, argnums, as_tuple=False)
    diff = tree_map(level.differentiable, picked)
    if isinstance(argnums, int):
        index = argnums % len(args)
        new_args = tuple(diff if i == index else a for i, a in enumerate(args))
    else:
        indices = [a % len(args) for a in argnums]
        new_args = tuple(diff[indices.index(i)] if i in indices else a for i, a in enumerate(args))
    return new_args, diff


def _split_aux(out, api):
    if not (isinstance(out, tuple) and len(out) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True")
    return out


def grad_and_value(func, argnums=0, has_aux=False):
    """The gradient of a scalar function ``func`` with respect to the inputs at ``argnums``, and
    its value.

    Args:
        func (Callable): a Python function returning a one-element (0-dim) Tensor, or
            ``(output, aux)`` when ``has_aux=True``.
        argnums (int or Tuple[int]): which positional arguments to differentiate. Default: 0.
        has_aux (bool): ``func`` returns ``(output, aux)``; ``aux`` is passed back undifferentiated.

    Returns:
        Callable: taking ``func``'s arguments and returning ``(grad, output)``, or
        ``(grad, (output, aux))`` with ``has_aux``. ``grad`` has the structure of the arguments
        at ``argnums`` (a tuple when ``argnums`` is a tuple).

    Example::

        >>> from torch.func import grad_and_value
        >>> x = torch.tensor([1., 2., 3.])
        >>> grad_and_value(lambda x: (x ** 2).sum())(x)
        (tensor([2., 4., 6.]), tensor(14.))
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return _grad_and_value(func, argnums, has_aux, args, kwargs)
    return wrapper


def grad(func, argnums=0, has_aux=False):
    """The gradient of a scalar function: ``grad(f)(x)`` is ``df/dx`` at ``x``.

    Args:
        func (Callable): a Python function returning a 0-dim Tensor (``(output, aux)`` with
            ``has_aux=True``).
        argnums (int or Tuple[int]): which positional arguments to differentiate. Default: 0.
        has_aux (bool): ``func`` returns ``(output, aux)``; the result is then ``(grad, aux)``.

    Returns:
        Callable: taking ``func``'s arguments and returning the gradient(s). Transforms compose:
        ``grad(grad(f))`` is the second derivative.

    Example::

        >>> from torch.func import grad
        >>> x = torch.randn([])
        >>> cos_x = grad(lambda x: torch.sin(x))(x)
        >>> assert torch.allclose(cos_x, x.cos())
        >>> neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
        >>> assert torch.allclose(neg_sin_x, -x.sin())
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        gradient, value = _grad_and_value(func, argnums, has_aux, args, kwargs)
        return (gradient, value[1]) if has_aux else gradient
    return wrapper


def _grad_and_value(func, argnums, has_aux, args, kwargs):
    api = "grad_and_value(f)(*args)"
    with GradLevel() as level, grad_mode.enable_grad():
        args, diff_args = _differentiable_args(level, args, argnums)
        output = call_user(func, *args, **kwargs)
        aux = None
        if has_aux:
            output, aux = _split_aux(output, api)
        if not isinstance(output, Tensor):
            raise RuntimeError(f"{api}: Expected f(*args) to return a Tensor, got {type(output)}")
        if output.dim() != 0:
            raise RuntimeError(f"{api}: Expected f(*args) to return a scalar Tensor, got tensor with "
                               f"{output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?")
        flat_diff, spec = tree_flatten(diff_args)
        create = needs_graph(level, [output])
        # without forward levels, and with grad mode on, needs_graph walked the output's history
        walked = not forward_mode.levels and grad_mode.is_grad_enabled()
        flat_grads = _autograd_grad((output,), flat_diff, create_graph=create, retain_graph=create)
        gradient = tree_unflatten([level.unwrap(g) for g in flat_grads], spec)
        output = level.unwrap(output, create if walked else None)
        if has_aux:
            return gradient, (output, level.unwrap_aux(aux))
        return gradient, output


def vjp(func, *primals, has_aux=False):
    """The output of ``func(*primals)`` and a function giving vector-Jacobian products.

    Args:
        func (Callable): a Python function of Tensors returning a Tensor or a pytree (tuple, list,
            dict) of Tensors.
        primals (Tensors): the positional arguments of ``func``; the products are taken with
            respect to all of them.
        has_aux (bool): ``func`` returns ``(output, aux)``; the result is then
            ``(output, vjp_fn, aux)``.

    Returns:
        ``(output, vjp_fn)``: ``vjp_fn(cotangents)``, with cotangents of ``output``'s structure,
        returns a tuple with ``cotangentsᵀ J`` for each primal.

    Example::

        >>> x = torch.randn([5])
        >>> f = lambda x: (x.sin(), x.cos())
        >>> (_, vjpfunc) = torch.func.vjp(f, x)
        >>> vjps = vjpfunc((torch.ones([5]), torch.ones([5])))
        >>> assert torch.allclose(vjps[0], x.cos() + -x.sin())
    """
    return _vjp(func, primals, None, has_aux)


def _vjp(func, primals, argnums, has_aux):
    api = "vjp(f, *primals)"
    with GradLevel() as level, grad_mode.enable_grad():
        args, diff_primals = _differentiable_args(level, primals, argnums)
        out = call_user(func, *args)
        aux = None
        if has_aux:
            out, aux = _split_aux(out, api)
            aux = level.unwrap_aux(aux)
        flat_out, out_spec = tree_flatten(out)
        assert_non_empty_tensor_output(flat_out, api)
        flat_diff, primals_spec = tree_flatten(diff_primals)
        for o in flat_out:
            if o.dtype.np.kind not in "fc":
                raise RuntimeError("vjp(f, ...): All outputs of f must be floating-point or complex Tensors, "
                                   f"got Tensor with dtype {o.dtype}")
        results = tree_unflatten([level.unwrap(o) for o in flat_out], out_spec)

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        flat_cot, cot_spec = tree_flatten(cotangents)
        if cot_spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of "
                               f"outputs to the function. cotangents: {treespec_pprint(cot_spec)}, "
                               f"primal output: {treespec_pprint(out_spec)}")
        create = needs_graph(level, flat_out, flat_cot) if create_graph is None else create_graph
        grads = _autograd_grad(flat_out, flat_diff, flat_cot, retain_graph=retain_graph, create_graph=create)
        return tree_unflatten([level.unwrap(g) for g in grads], primals_spec)

    vjp_fn.level = level
    vjp_fn.outputs = flat_out
    vjp_fn.inputs = flat_diff
    if has_aux:
        return results, vjp_fn, aux
    return results, vjp_fn


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """The Jacobian of ``func`` with respect to the argument(s) at ``argnums``, by reverse mode:
    one vector-Jacobian product per output element (batched into one backward pass where the
    graph allows).

    Args:
        func (Callable): a Python function of Tensors returning a Tensor or a pytree of Tensors.
        argnums (int or Tuple[int]): which positional arguments to differentiate. Default: 0.
        has_aux (bool): ``func`` returns ``(output, aux)``; the result is then ``(jacobian, aux)``.
        chunk_size (None or int): accepted as PyTorch's (rows per pass); the result is the same.

    Returns:
        Callable: taking ``func``'s arguments and returning the Jacobian, of shape
        ``output.shape + input.shape``, nested as the outputs then as ``argnums``.

    Example::

        >>> from torch.func import jacrev
        >>> x = torch.randn(5)
        >>> jacobian = jacrev(torch.sin)(x)
        >>> assert torch.allclose(jacobian, torch.diag(torch.cos(x)))
        >>> hessian = jacrev(jacrev(lambda x: x.sin().sum()))(x)
        >>> assert torch.allclose(hessian, torch.diag(-x.sin()))
    """
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args):
        error_if_complex("jacrev", tree_leaves(args), is_input=True)
        result = _vjp(func, args, argnums, has_aux)
        output, vjp_fn = result[0], result[1]
        flat_output, output_spec = tree_flatten(output)
        error_if_complex("jacrev", flat_output, is_input=False)
        primals = slice_argnums(args, argnums)
        _, primals_spec = tree_flatten(primals)
        blocks = _joined_like_functorch(_jacobian_blocks(vjp_fn), vjp_fn.inputs)
        per_output = []
        for row in blocks:
            jac = tree_unflatten(row, primals_spec)
            per_output.append(jac[0] if isinstance(argnums, int) else jac)
        jacobian = tree_unflatten(per_output, output_spec)
        return (jacobian, result[2]) if has_aux else jacobian
    return wrapper


def _vjp_rows_one_by_one(out, inputs, basis, create_graph):
    """The rows of ``batched_vjp`` one backward pass each: under vmap the batch dim of the
    vectorized pass is taken by the vmap batch already."""
    import autograd_py
    per_row = [autograd_grad(out, inputs, basis[k], retain_graph=True, create_graph=create_graph, allow_unused=True)
               for k in range(basis.shape[0])]
    rows = []
    for i, x in enumerate(inputs):
        parts = [g[i] for g in per_row]
        if all(p is None for p in parts):
            rows.append(None)
            continue
        rows.append(autograd_py.stack([autograd_py.zeros_like(x) if p is None else p for p in parts]))
    return rows


def _joint_rows(out, live, inputs, basis, create_graph):
    """The rows of ``out``'s basis with a zero cotangent for every other output that requires
    grad, as functorch's one vmapped vjp over the whole basis: there a zero times another output's
    infinite or NaN local derivative gives NaN in this output's rows too."""
    from .. import engine
    from ..autograd.batched import _graph_supports_batching
    from ..ops import base
    from .._tensor import _make
    import autograd_py
    n = basis.shape[0]
    k = next(i for i, o in enumerate(live) if o is out)  # by position: one tensor may be two outputs
    cots = [basis if i == k else _make(np.zeros((n,) + tuple(o.shape), o.dtype.np)) for i, o in enumerate(live)]
    if create_graph or vmap_levels or not all(o.grad_fn is not None and _graph_supports_batching(o.grad_fn)
                                              for o in live):
        per_row = [autograd_grad(live, inputs, [c[k] for c in cots], retain_graph=True, create_graph=create_graph,
                                 allow_unused=True) for k in range(n)]
        rows = []
        for i, x in enumerate(inputs):
            parts = [g[i] for g in per_row]
            rows.append(None if all(p is None for p in parts) else
                        autograd_py.stack([autograd_py.zeros_like(x) if p is None else p for p in parts]))
        return rows
    base.batch_ndim[0] = 1
    try:
        return engine.run_backward(live, cots, keep_graph=True, create_graph=False, inputs=list(inputs),
                                   accumulate=False)
    finally:
        base.batch_ndim[0] = 0


def _empty_rows(out, inputs, shape):
    """The rows of an empty output's Jacobian: PyTorch's vmapped backward pass still runs over
    the empty basis, so the (empty) rows are linked to whatever its formulas read (``x`` in
    ``x ** 2``'s, nothing in indexing's): one pass with the empty cotangent does the same."""
    with grad_mode.enable_grad():
        grads = autograd_grad(out, inputs, out.detach(), retain_graph=True, create_graph=True, allow_unused=True)
    return [None if g is None else g.reshape((1,) * len(shape) + tuple(g.shape)).expand(shape + tuple(g.shape))
            for g in grads]


def _joined_like_functorch(blocks, inputs):
    """functorch computes one input's rows for all outputs in one vmapped pass and splits them:
    when some output's block is differentiable (linked to an outer graph), every block of that
    input is a view of the joined result and requires grad too. The same join, then the split."""
    import autograd_py
    if len(blocks) < 2:
        return blocks
    for i, x in enumerate(inputs):
        column = [row[i] for row in blocks]
        if all(b.requires_grad for b in column) or not any(b.requires_grad for b in column):
            continue
        rows = [b.numel() // max(1, x.numel()) if x.numel() else int(np.prod(b.shape[:b.dim() - x.dim()]))
                for b in column]
        flat = [b.reshape(n, *x.shape) for b, n in zip(column, rows)]
        parts = autograd_py.cat(flat).split(rows)
        for row, part, b in zip(blocks, parts, column):
            row[i] = part.view(tuple(b.shape))
    return blocks


def _jacobian_blocks(vjp_fn):
    """``d out_k / d in_i`` for every output k and input i of a ``vjp`` call, each of shape
    ``out_k.shape + in_i.shape``: one backward pass per output, batched over its elements."""
    from ..autograd.batched import batched_vjp
    from ..creation import zeros
    from .._tensor import _make
    level, outputs, inputs = vjp_fn.level, vjp_fn.outputs, vjp_fn.inputs
    create = needs_graph(level, outputs)
    live = [o for o in outputs if _tracked(o, inputs)]
    blocks = []
    for out in outputs:
        shape = tuple(out.shape)
        n = out.numel()
        if not _tracked(out, inputs):
            blocks.append([level.unwrap(zeros(shape + tuple(x.shape), dtype=x.dtype)) for x in inputs])
            continue
        basis = _make(np.eye(n, dtype=out.dtype.np).reshape((n,) + shape))
        with grad_mode.enable_grad():
            # An output that is an input itself has no graph to batch over: one pass per row.
            if len(live) > 1:
                rows = _joint_rows(out, live, inputs, basis, create_graph=create or out.grad_fn is None)
            else:
                rows = (_vjp_rows_one_by_one if vmap_levels else batched_vjp)(out, inputs, basis,
                                                                              create_graph=create or out.grad_fn is None)
        row = []
        if n == 0 and create:
            rows = _empty_rows(out, inputs, shape)
        for r, x in zip(rows, inputs):
            if r is None:
                r = zeros(shape + tuple(x.shape), dtype=x.dtype)
            else:
                r = r.view(shape + tuple(x.shape))
            row.append(level.unwrap(r))
        blocks.append(row)
    return blocks
