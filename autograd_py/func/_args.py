"""Argument checks shared by the transforms: ``argnums`` slicing and PyTorch's misuse errors."""
from .._tensor import Tensor


def _validate_and_wrap_argnum(argnum, num_args):
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < num_args:
        return argnum
    if -num_args <= argnum < 0:
        return argnum + num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def slice_argnums(args, argnums, as_tuple=True):
    """The positional arguments picked by ``argnums`` (an int or a tuple of ints)."""
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if isinstance(argnums, int):
        argnums = _validate_and_wrap_argnum(argnums, len(args))
        return (args[argnums],) if as_tuple else args[argnums]
    argnums = tuple(_validate_and_wrap_argnum(a, len(args)) for a in argnums)
    if len(argnums) == 0:
        raise RuntimeError("argnums must be non-empty")
    if len(set(argnums)) != len(argnums):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return tuple(args[i] for i in argnums)


def wrap_argnums(argnums, num_args):
    if isinstance(argnums, int):
        return _validate_and_wrap_argnum(argnums, num_args)
    return tuple(_validate_and_wrap_argnum(a, num_args) for a in argnums)


def replace_args(old_args, new_args, argnums):
    """``old_args`` with the ones at ``argnums`` replaced by ``new_args``."""
    if isinstance(argnums, int):
        return tuple(new_args[0] if i == argnums else a for i, a in enumerate(old_args))
    return tuple(new_args[argnums.index(i)] if i in argnums else a for i, a in enumerate(old_args))


def assert_non_empty_tensor_output(output, api):
    if (len(output) == 1 and output[0] is None) or len(output) < 1:
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output (got output = {output})")
    for o in output:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got unsupported type {type(o)}")


def assert_non_empty_list_of_tensors(output, api, argname):
    if len(output) == 0:
        raise RuntimeError(f"{api}: Expected {argname} to contain at least one Tensor.")
    for out in output:
        if not isinstance(out, Tensor):
            raise RuntimeError(f"{api}: Expected {argname} to only contain Tensors, got {type(out)}")


def error_if_complex(func_name, leaves, is_input):
    for idx, arg in enumerate(leaves):
        if isinstance(arg, Tensor) and arg.dtype.np.kind == "c":
            kind = "inputs" if is_input else "outputs"
            raise RuntimeError(f"{func_name}: Expected all {kind} to be real but received complex tensor at "
                               f"flattened input idx: {idx}")
