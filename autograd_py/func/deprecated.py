"""``functorch``: the transforms under their old package name, as PyTorch 2.13 still ships it.

Each one warns once per call that it moved to ``torch.func`` (PyTorch's FutureWarning, word for
word), then runs the ``torch.func`` transform. ``install_as_torch()`` makes ``import functorch``
resolve here.

Example::

    >>> import functorch
    >>> functorch.grad(lambda x: (x ** 2).sum())(torch.tensor([1., 2.]))   # FutureWarning
    tensor([2., 4.])
"""
import warnings

from ..batching import vmap as _vmap
from . import forward as _fw
from . import reverse as _rev


def _warn(api, new_api=None):
    new_api = new_api or f"torch.func.{api}"
    warnings.warn(f"We've integrated functorch into PyTorch. As the final step of the integration, `functorch.{api}` "
                  "is deprecated as of PyTorch 2.0 and will be deleted in a future version of PyTorch >= 2.3. "
                  f"Please use `{new_api}` instead; see the PyTorch 2.0 release notes and/or the `torch.func` "
                  "migration guide for more details https://pytorch.org/docs/main/func.migrating.html",
                  FutureWarning, stacklevel=3)


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """Deprecated spelling of :func:`torch.vmap`."""
    _warn("vmap", "torch.vmap")
    return _vmap(func, in_dims, out_dims, randomness, chunk_size=chunk_size)


def grad(func, argnums=0, has_aux=False):
    """Deprecated spelling of :func:`torch.func.grad`."""
    _warn("grad")
    return _rev.grad(func, argnums, has_aux)


def grad_and_value(func, argnums=0, has_aux=False):
    """Deprecated spelling of :func:`torch.func.grad_and_value`."""
    _warn("grad_and_value")
    return _rev.grad_and_value(func, argnums, has_aux)


def vjp(func, *primals, has_aux=False):
    """Deprecated spelling of :func:`torch.func.vjp`."""
    _warn("vjp")
    return _rev.vjp(func, *primals, has_aux=has_aux)


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """Deprecated spelling of :func:`torch.func.jvp`."""
    _warn("jvp")
    return _fw.jvp(func, primals, tangents, strict=strict, has_aux=has_aux)


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """Deprecated spelling of :func:`torch.func.jacrev`."""
    _warn("jacrev")
    return _rev.jacrev(func, argnums, has_aux=has_aux, chunk_size=chunk_size,
                       _preallocate_and_copy=_preallocate_and_copy)


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """Deprecated spelling of :func:`torch.func.jacfwd`."""
    _warn("jacfwd")
    return _fw.jacfwd(func, argnums, has_aux, randomness=randomness)


def hessian(func, argnums=0):
    """Deprecated spelling of :func:`torch.func.hessian`."""
    _warn("hessian")
    return _fw.hessian(func, argnums=argnums)


def __getattr__(name):
    if name == "__version__":
        import autograd_py
        return autograd_py.__version__
    raise AttributeError(f"module 'functorch' has no attribute '{name}'")
