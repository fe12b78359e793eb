"""``gradcheck``: compares analytical gradients with central finite differences, in float64."""
import warnings

import numpy as np

from .._tensor import Tensor, _make
from .api import grad as autograd_grad


class GradcheckError(RuntimeError):
    """Raised by :func:`gradcheck` when the analytical and numerical Jacobians differ."""


def _tuple(x):
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _outputs(func, inputs):
    return [o for o in _tuple(func(*inputs)) if isinstance(o, Tensor)]


def _numerical(func, inputs, i, out_index, eps):
    """Column by column: d out / d input[i] by central differences (rows: input elems, cols: output elems)."""
    x = inputs[i]
    flat = x._data.reshape(-1)
    # Grad mode stays on: gradgradcheck's function itself calls autograd.grad.
    n_out = _outputs(func, inputs)[out_index]._data.size
    jac = np.zeros((flat.size, n_out))
    for k in range(flat.size):
        orig = flat[k]
        flat[k] = orig + eps
        plus = _outputs(func, inputs)[out_index]._data.astype(np.float64).reshape(-1)
        flat[k] = orig - eps
        minus = _outputs(func, inputs)[out_index]._data.astype(np.float64).reshape(-1)
        flat[k] = orig
        jac[k] = (plus - minus) / (2 * eps)
    return jac


def _analytical(outputs, inputs, i, out_index):
    out = outputs[out_index]
    jac = np.zeros((inputs[i]._data.size, out._data.size))
    for j in range(out._data.size):
        onehot = np.zeros(out._data.size, dtype=out._data.dtype)
        onehot[j] = 1
        (g,) = autograd_grad(out, inputs[i], _make(onehot.reshape(out._data.shape)), retain_graph=True,
                             allow_unused=True)
        if g is not None:
            jac[:, j] = g._data.reshape(-1)
    return jac


def _forward_analytical(func, inputs, i, out_index):
    """Row by row: d out / d input[i] from one forward-mode JVP per input element."""
    from . import forward_ad
    x = inputs[i]
    rows = []
    with forward_ad.dual_level():
        for k in range(x._data.size):
            onehot = np.zeros(x._data.size, dtype=x._data.dtype)
            onehot[k] = 1
            duals = list(inputs)
            duals[i] = forward_ad.make_dual(x.detach(), _make(onehot.reshape(x._data.shape)))
            out = _outputs(func, duals)[out_index]
            tangent = forward_ad.unpack_dual(out).tangent
            rows.append(np.zeros(out._data.size) if tangent is None else tangent._data.reshape(-1))
    return np.array(rows).reshape(x._data.size, -1)


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """Checks gradients computed by backward against finite differences for every input requiring grad.

    Args:
        func (callable): takes the inputs and returns a Tensor or a tuple of Tensors.
        inputs (Tensor or tuple of Tensor): inputs; those requiring grad are checked. Use float64.
        eps (float, optional): finite-difference step. Defaults to 1e-6.
        atol (float, optional): absolute tolerance. Defaults to 1e-5.
        rtol (float, optional): relative tolerance. Defaults to 1e-3.
        raise_exception (bool, optional): raise on mismatch instead of returning False. Defaults to True.
        check_forward_ad (bool, optional): also check the Jacobian built by forward mode, one JVP per
            input element. Defaults to False.
        check_backward_ad (bool, optional): check the Jacobian built by backward. Defaults to True.

    Returns:
        bool: True when every Jacobian matches.

    Example::

        >>> x = torch.randn(3, dtype=torch.double, requires_grad=True)
        >>> torch.autograd.gradcheck(torch.sin, (x,))
        True
    """
    inputs = _tuple(inputs)
    for idx, x in enumerate(inputs):
        if isinstance(x, Tensor) and x._requires_grad and x._data.dtype != np.float64:
            warnings.warn(f"Input #{idx} requires gradient and is not a double precision floating point or "
                          "complex. This check will likely fail if all the inputs are not of double precision "
                          "floating point or complex. ", UserWarning, stacklevel=2)
    outputs = _outputs(func, inputs)
    if not any(out._requires_grad for out in outputs):
        # Nothing to differentiate: then the function must not depend on its inputs at all.
        for i, x in enumerate(inputs):
            if isinstance(x, Tensor) and x._requires_grad and any(
                    np.any(_numerical(func, inputs, i, o_idx, eps) != 0) for o_idx in range(len(outputs))):
                if not raise_exception:
                    return False
                raise GradcheckError("Numerical gradient for function expected to be zero")
    for o_idx, out in enumerate(outputs):
        if not out._requires_grad:
            continue
        for i, x in enumerate(inputs):
            if not (isinstance(x, Tensor) and x._requires_grad):
                continue
            numerical = _numerical(func, inputs, i, o_idx, eps)
            checks = []
            if check_backward_ad:
                checks.append(("Jacobian mismatch", _analytical(outputs, inputs, i, o_idx)))
            if check_forward_ad:
                checks.append(("Jacobian computed with forward mode mismatch",
                               _forward_analytical(func, inputs, i, o_idx)))
            for what, analytical in checks:
                if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                    if not raise_exception:
                        return False
                    raise GradcheckError(
                        f"{what} for output {o_idx} with respect to input {i},\n"
                        f"numerical:{_make(numerical)!r}\nanalytical:{_make(analytical)!r}\n")
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
                  **kwargs):
    """Checks second-order gradients: gradcheck of ``(inputs, v) -> vjp(func, inputs, v)``.

    As in PyTorch, the random ``grad_outputs`` require grad too, so a backward formula that drops
    the graph of its incoming gradient fails the check.
    """
    inputs = _tuple(inputs)
    outputs = [o for o in _outputs(func, inputs) if o._requires_grad]
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = [_make(rng.uniform(-1, 1, o._data.shape).astype(o._data.dtype), requires_grad=True)
                        for o in outputs]
    grad_outputs = tuple(_tuple(grad_outputs))
    n_in = len(inputs)
    diff_idx = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x._requires_grad]

    def first_order(*args):
        outs = [o for o in _outputs(func, args[:n_in]) if o._requires_grad]
        grads = autograd_grad(outs, [args[i] for i in diff_idx], list(args[n_in:]), create_graph=True,
                              allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_order, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)
