"""PyTorch's TypeError for a call that matches none of a function's signatures."""


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
