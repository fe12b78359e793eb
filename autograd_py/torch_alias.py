"""``install_as_torch()``: lets ``import torch`` (and its submodules) resolve to autograd_py."""
import sys

_SUBMODULES = {
    "torch": "autograd_py",
    "torch.autograd": "autograd_py.autograd",
    "torch.autograd.functional": "autograd_py.autograd.functional",
    "torch.autograd.function": "autograd_py.autograd.function",
    "torch.autograd.graph": "autograd_py.autograd.graph",
    "torch.autograd.gradcheck": "autograd_py.autograd.gradcheck",
    "torch.autograd.variable": "autograd_py.autograd.variable",
    "torch.nn": "autograd_py.nn",
    "torch.nn.functional": "autograd_py.nn.functional",
    "torch.nn.init": "autograd_py.nn.init",
    "torch.nn.parameter": "autograd_py.nn.parameter",
    "torch.optim": "autograd_py.optim",
}


def install_as_torch():
    """Maps ``torch`` and its submodules to autograd_py in ``sys.modules``.

    After it, ``import torch``, ``import torch.nn as nn`` and ``from torch.autograd import
    Variable`` all work, so PyTorch snippets run unchanged.

    Returns:
        module: the ``autograd_py`` package (now also ``sys.modules['torch']``).

    Example::

        >>> import autograd_py
        >>> autograd_py.install_as_torch()
        >>> import torch
        >>> torch.tensor([1., 2.]) * 2
        tensor([2., 4.])
    """
    import importlib
    for alias, real in _SUBMODULES.items():
        try:
            sys.modules[alias] = importlib.import_module(real)
        except ModuleNotFoundError as exc:
            if exc.name != real:
                raise
    return sys.modules["torch"]
