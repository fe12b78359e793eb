"""Forward-mode transforms of ``torch.func``: ``jvp``, ``jacfwd``, ``linearize``, ``hessian``.

Each ``jvp`` call enters a forward-mode level of its own (``forward_mode`` levels nest, unlike the
single public ``dual_level``), gives the primals their tangents there and reads the outputs'
tangents before leaving it. ``jacfwd`` pushes one tangent per input element: one forward pass
per Jacobian column.
"""
import functools

import numpy as np

from .. import forward_mode
from ..batching import vmap
from ..batching.batched import BatchedTensor, is_refusal, levels as vmap_levels, primal_levels
from ..batching.dispatch import call_user  # the user's function, batched and counted as transformed
from .._tensor import Tensor, _make
from ._args import (assert_non_empty_list_of_tensors, assert_non_empty_tensor_output, error_if_complex,
                    replace_args, slice_argnums, wrap_argnums)
from ._levels import JvpLevel, copy_tangents
from ._pytree import tree_flatten, tree_leaves, tree_map, tree_unflatten
from .reverse import jacrev

JVP_STR = "jvp(f, primals, tangents)"


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """The output of ``func(*primals)`` and its Jacobian-vector product with ``tangents``, in
    one forward pass.

    Args:
        func (Callable): a Python function of Tensors returning a Tensor or a pytree of Tensors.
        primals (tuple): the arguments of ``func`` (a tuple of Tensors or pytrees of Tensors).
        tangents (tuple): one direction per primal, of the same structure and shapes.
        has_aux (bool): ``func`` returns ``(output, aux)``; the result is then
            ``(output, jvp_out, aux)``.

    Returns:
        ``(output, jvp_out)``: ``func(*primals)`` and ``J @ tangents``, of ``output``'s structure.

    Example::

        >>> from torch.func import jvp
        >>> x = torch.randn([])
        >>> f = lambda x: x * torch.tensor([1., 2., 3])
        >>> value, grad = jvp(f, (x,), (torch.tensor(1.),))
        >>> assert torch.allclose(value, f(x))
        >>> assert torch.allclose(grad, torch.tensor([1., 2, 3]))
    """
    return _jvp(func, primals, tangents, None, strict=strict, has_aux=has_aux)


def _jvp(func, primals, tangents, argnums, *, strict=False, has_aux=False):
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{JVP_STR}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    diff_args = primals if argnums is None else slice_argnums(primals, argnums)
    flat_primals, primals_spec = tree_flatten(diff_args)
    flat_tangents, tangents_spec = tree_flatten(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(f"{JVP_STR}: Expected primals and tangents to have the same python structure. For "
                           "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals with "
                           f"structure {primals_spec} and tangents with structure {tangents_spec}")
    assert_non_empty_list_of_tensors(flat_primals, JVP_STR, "primals")
    assert_non_empty_list_of_tensors(flat_tangents, JVP_STR, "tangents")
    with JvpLevel() as level:
        duals = tree_unflatten([level.dual(p, t) for p, t in zip(flat_primals, flat_tangents)], primals_spec)
        if argnums is not None:
            duals = replace_args(primals, duals, wrap_argnums(argnums, len(primals)))
        result = call_user(func, *duals)
        aux = None
        if has_aux:
            if not (isinstance(result, tuple) and len(result) == 2):
                raise RuntimeError(f"{JVP_STR}: output of function f should be a tuple: (output, aux) "
                                   "if has_aux is True")
            result, aux = result
            aux = tree_map(_check_aux_tensor, aux)
        flat_out, spec = tree_flatten(result)
        assert_non_empty_tensor_output(flat_out, JVP_STR)
        tangents_out = []
        for out in flat_out:
            t = level.tangent(out)
            if t is None:
                if strict:
                    raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is independent of "
                                       "the inputs. This is not allowed with strict=True.")
                from autograd_py import zeros_like
                t = zeros_like(out)
            tangents_out.append(t)
    out_tree = tree_unflatten([level.cut(_unpacked_primal(o)) for o in flat_out], spec)
    tangent_tree = tree_unflatten([level.cut(t) for t in tangents_out], spec)
    if has_aux:
        return out_tree, tangent_tree, aux
    return out_tree, tangent_tree


def _unpacked_primal(t):
    """An output as PyTorch's ``unpack_dual(out).primal`` gives it back: an alias, so one that
    requires grad is never a leaf (a view ``func`` made under ``no_grad`` included)."""
    if isinstance(t, BatchedTensor):
        return BatchedTensor(_unpacked_primal(t._value), t._level)
    if not t.requires_grad:
        return t
    with forward_mode.hidden():  # the tangents are copied below, as ``alias`` does
        out = t[...]
    copy_tangents(t, out)
    return out


def _check_aux_tensor(x):
    if not isinstance(x, Tensor):
        raise RuntimeError(f"Expected tensors, got unsupported type {type(x)}")
    return x


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian of ``func`` with respect to the argument(s) at ``argnums``, by forward mode:
    one Jacobian-vector product per input element.

    Args:
        func (Callable): a Python function of Tensors returning a Tensor or a pytree of Tensors.
        argnums (int or Tuple[int]): which positional arguments to differentiate. Default: 0.
        has_aux (bool): ``func`` returns ``(output, aux)``; the result is then ``(jacobian, aux)``.
        randomness (str): accepted as PyTorch's; ``func`` runs once per column here.

    Returns:
        Callable: taking ``func``'s arguments and returning the Jacobian, of shape
        ``output.shape + input.shape``.

    Example::

        >>> from torch.func import jacfwd
        >>> x = torch.randn(5)
        >>> jacobian = jacfwd(torch.sin)(x)
        >>> assert torch.allclose(jacobian, torch.diag(torch.cos(x)))
        >>> hessian = jacfwd(jacfwd(lambda x: x.sin().sum()))(x)
        >>> assert torch.allclose(hessian, torch.diag(-x.sin()))
    """
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")

    @functools.wraps(func)
    def wrapper(*args):
        error_if_complex("jacfwd", tree_leaves(args), is_input=True)
        primals = args if argnums is None else slice_argnums(args, argnums)
        flat_primals, primals_spec = tree_flatten(primals)
        numels = [p.numel() for p in flat_primals]
        # As functorch does: every basis direction at once, one JVP batched by vmap.
        bases = _basis_batches(flat_primals, numels)
        found = {}

        def column(*tangents):
            if found.pop("enter", False):  # called by jacfwd's own vmap: its level (see primal_levels)
                found["level"] = vmap_levels[-1][0]
                primal_levels.add(found["level"])
            result = _jvp(func, args, tree_unflatten(list(tangents), primals_spec), argnums, has_aux=has_aux)
            error_if_complex("jacfwd", tree_leaves(result[0]), is_input=False)
            flat_t, found["spec"] = tree_flatten(result[1])
            aux_leaves, found["aux_spec"] = tree_flatten(result[2] if has_aux else ())
            return tuple(flat_t), tuple(aux_leaves)
        if sum(numels) == 1:
            # One direction: functorch's primals stay unbatched, and so do they here (a 0-dim
            # primal's reductions then keep their 0-dim formulas, which read no primal)
            columns, aux_leaves = _columns_one_by_one(column, bases)
        else:
            found["enter"] = True
            try:
                columns, aux_leaves = vmap(column, randomness=randomness)(*bases)
            except RuntimeError as error:
                primal_levels.discard(found.pop("level", None))
                if not is_refusal(error):
                    raise
                # Here vmap batches the primals with the tangents, where functorch batches only the
                # tangents: a write of the function into one of its own unbatched tensors
                # (``out[0] = ...``), or a read of a primal's value (``.item()``, ``if x > 0:``),
                # cannot take a batch. Then one JVP per direction, as the definition says.
                columns, aux_leaves = _columns_one_by_one(column, bases)
            primal_levels.discard(found.pop("level", None))
        jacobians = [_assemble(c, flat_primals, numels, primals_spec, argnums) for c in columns]
        jacobian = tree_unflatten(jacobians, found["spec"])
        if not has_aux:
            return jacobian
        # aux depends on the primals alone: every direction computed the same one
        return jacobian, tree_unflatten([a[0] for a in aux_leaves], found["aux_spec"])
    return wrapper


def _columns_one_by_one(column, bases):
    import autograd_py
    results = [column(*[b[j] for b in bases]) for j in range(bases[0].shape[0])]
    tangents = tuple(autograd_py.stack([r[0][k] for r in results]) for k in range(len(results[0][0])))
    return tangents, results[0][1] and tuple(a.unsqueeze(0) for a in results[0][1])


def _basis_batches(flat_primals, numels):
    """For each primal, its part of every standard basis direction: row j of the identity over all
    the flattened primals, shaped like that primal (``(total, *primal.shape)``)."""
    if len(flat_primals) == 1:  # the identity itself, shaped like the primal
        p, n = flat_primals[0], numels[0]
        return [_make(np.eye(n, dtype=p.dtype.np).reshape((n, *p.shape)))]
    total, start, out = sum(numels), 0, []
    for p, n in zip(flat_primals, numels):
        rows = np.zeros((total, n), dtype=p.dtype.np)
        rows[start:start + n] = np.eye(n, dtype=p.dtype.np)
        out.append(_make(rows.reshape((total, *p.shape))))
        start += n
    return out


def _assemble(batched, flat_primals, numels, primals_spec, argnums):
    """One output's Jacobian blocks (``out.shape + primal.shape``) from its tangents for every
    basis direction (the batch dim first)."""
    full = batched.permute(*range(1, batched.dim()), 0)
    out_shape = tuple(batched.shape[1:])
    blocks = []
    for part, p in zip(full.split(numels, -1), flat_primals):
        # functorch's safe_unflatten of the last dim: a view (a squeeze for a 0-dim primal)
        blocks.append(part.view(out_shape + tuple(p.shape)) if p.dim() else part.squeeze(-1))
    jac = tree_unflatten(blocks, primals_spec)
    return jac[0] if isinstance(argnums, int) else jac


def hessian(func, argnums=0):
    """The Hessian of a scalar ``func``: ``jacfwd(jacrev(func, argnums), argnums)``
    (forward-over-reverse).

    Example::

        >>> from torch.func import hessian
        >>> def f(x):
        ...     return x.sin().sum()
        >>> x = torch.randn(5)
        >>> hess = hessian(f)(x)  # equivalent to jacfwd(jacrev(f))(x)
        >>> assert torch.allclose(hess, torch.diag(-x.sin()))
    """
    return jacfwd(jacrev(func, argnums), argnums)


def linearize(func, *primals):
    """``func(*primals)`` and a function computing its JVP at ``primals`` for any tangents.

    PyTorch traces the JVP into a graph once; here ``jvp_fn`` runs ``func``'s forward pass again
    with each set of tangents (the same numbers).

    Returns:
        ``(output, jvp_fn)``: ``jvp_fn(*tangents)`` is ``J @ tangents``.

    Example::

        >>> x = torch.randn(3, 3)
        >>> def fn(x):
        ...     return x.sin()
        >>> output, jvp_fn = torch.func.linearize(fn, x)
        >>> jvp_fn(torch.ones(3, 3))   # cos(x)
    """
    output = call_user(func, *primals)
    flat_primals, primals_spec = tree_flatten(primals)
    # PyTorch traces the JVP here, so an op without a forward formula fails at this call
    # (and warns a second time, as its trace does)
    import warnings
    from .. import zeros_like
    jvp(func, primals, tree_unflatten([zeros_like(p) for p in flat_primals], primals_spec))
    shapes = [p.shape for p in flat_primals]
    dtypes = [p.dtype for p in flat_primals]

    def jvp_fn(*tangents):
        flat_tangents, tangent_spec = tree_flatten(tangents)
        if tangent_spec != primals_spec:
            raise RuntimeError(f"Expected the tangents {tangent_spec} to have the same argspec as the primals "
                               f"{primals_spec}")
        for idx, t in enumerate(flat_tangents):
            if t.shape != shapes[idx]:
                raise RuntimeError(f"tangent:{idx} with shape {t.shape} in flattened pytree doesn't match the "
                                   f"shape {shapes[idx]} of the corresponding primal.")
            if t.dtype != dtypes[idx]:
                raise RuntimeError(f"tangent:{idx} with dtype {t.dtype} in flattened pytree doesn't match the "
                                   f"dtype {dtypes[idx]} of the corresponding primal.")
        with warnings.catch_warnings():  # PyTorch replays its traced graph: the function's warnings are not raised again
            warnings.simplefilter("ignore")
            return jvp(func, primals, tangents)[1]
    return output, jvp_fn
