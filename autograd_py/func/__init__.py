"""``torch.func``: composable function transforms (``grad``, ``vjp``, ``jvp``, ``jacrev``,
``jacfwd``, ``hessian``, ``linearize``, ``functional_call``).

Example::

    >>> from torch.func import grad, jacrev, hessian
    >>> f = lambda x: (x ** 3).sum()
    >>> x = torch.tensor([1., 2.])
    >>> grad(f)(x)
    tensor([ 3., 12.])
    >>> hessian(f)(x)
    tensor([[ 6.,  0.],
            [ 0., 12.]])
"""
from .forward import hessian, jacfwd, jvp, linearize
from .functional_call import functional_call, stack_module_state
from .reverse import grad, grad_and_value, jacrev, vjp
from ..batching import vmap

__all__ = ["grad", "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp", "linearize", "vjp",
           "functional_call", "stack_module_state", "vmap"]
