"""How PyTorch's argument parser reads calls: its TypeError for a call matching no signature, NumPy names."""
import functools


def type_name(value):
    """How PyTorch's argument parser names a value's type (``Tensor``, ``torch.dtype``, ``int``, ...)."""
    from ._tensor import Tensor
    from .devices import device
    from .dtypes import dtype

    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, dtype):
        return "torch.dtype"
    if isinstance(value, device):
        return "torch.device"
    return type(value).__name__


def invalid_combination(name, args, kwargs, signatures):
    """The TypeError for ``name(*args, **kwargs)``, listing the accepted ``signatures``.

    Args:
        name (str): the function's name, e.g. ``"to"``.
        args (tuple): the positional arguments given.
        kwargs (dict): the keyword arguments given (listed sorted, as PyTorch does).
        signatures (list of str): each accepted signature, e.g. ``"(Tensor tensor, bool copy = False)"``.

    Returns:
        TypeError: the error to raise.
    """
    parts = [type_name(a) for a in args] + [f"{k}={type_name(v)}" for k, v in sorted(kwargs.items())]
    got = ", ".join(parts) + (", " if kwargs and not args else "")
    listed = "".join(f" * {s}\n" for s in signatures)
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     f"{listed}")


# PyTorch's argument parser takes NumPy's keyword names for these parameters on every native function
# (python_arg_parser.cpp, numpy_compatibility_arg_names): ``t.sum(axis=0, keepdims=True)``.
_NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim", "x": "input", "a": "input", "x1": "input", "x2": "other"}


def numpy_names(fn):
    """Lets ``fn`` also take NumPy's keyword names (``axis``, ``keepdims``, ...) as PyTorch's native ops do.

    Only aliases of parameters ``fn`` has are accepted. Giving both names (``dim=0, axis=0``) is
    PyTorch's TypeError for an unexpected keyword. Python-level PyTorch functions (``Tensor.norm``,
    ``split``, ``F.softmax``) do not take the aliases, so they are not decorated.

    Example::

        >>> torch.tensor([[1., 2.], [3., 4.]]).sum(axis=1, keepdims=True)
        tensor([[3.],
                [7.]])
    """
    code = fn.__code__
    params = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    renames = {alias: name for alias, name in _NUMPY_NAMES.items() if name in params and alias not in params}

    def wrapper(*args, **kwargs):
        if kwargs and not renames.keys().isdisjoint(kwargs):
            for alias in renames.keys() & kwargs.keys():
                if renames[alias] in kwargs:
                    raise TypeError(f"{fn.__name__}() got an unexpected keyword argument '{alias}'")
                kwargs[renames[alias]] = kwargs.pop(alias)
        return fn(*args, **kwargs)

    functools.update_wrapper(wrapper, fn)
    return wrapper
