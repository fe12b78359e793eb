"""``functional_call`` (a module run with given parameters and buffers) and ``stack_module_state``."""
import contextlib
from collections.abc import Sequence

from .._tensor import Tensor

_MISSING = object()


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True,
                    strict=False):
    """Calls ``module`` with its parameters and buffers replaced by the given tensors.

    The module is left as it was afterwards. This makes a module a function of its parameters,
    which the other transforms can differentiate: ``grad(lambda p: loss(functional_call(model, p, x)))``.

    Args:
        module (torch.nn.Module): the module to call.
        parameter_and_buffer_dicts (Dict[str, Tensor] or tuple of Dict[str, Tensor]): the tensors
            to use, by qualified name (``"layer.weight"``); several dicts must not share a key.
        args (Any or tuple): positional arguments of the call (a non-tuple is one argument).
        kwargs (dict): keyword arguments of the call.
        tie_weights (bool): tensors tied in the module (one tensor under two names) stay tied:
            a value given for one name is used for all. Default: True.
        strict (bool): the names given must be exactly the module's. Default: False.

    Returns:
        Any: the result of calling ``module``.

    Example::

        >>> model = torch.nn.Linear(3, 3)
        >>> params = {k: v.detach() for k, v in model.named_parameters()}
        >>> x = torch.randn(4, 3)
        >>> torch.func.functional_call(model, params, (x,))
    """
    if isinstance(parameter_and_buffer_dicts, dict):
        given = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, Sequence):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError("Expected all elements of parameter_and_buffer_dicts to be dictionaries")
        counts = {}
        for d in parameter_and_buffer_dicts:
            for k in d:
                counts[k] = counts.get(k, 0) + 1
        repeated = [k for k, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of functional call is ambiguous")
        given = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError("Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
                         f"{type(parameter_and_buffer_dicts)}")
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _reparametrize(module, given, tie_weights, strict):
        return module(*args, **kwargs)


def _named_tensors(module):
    named = dict(module.named_parameters(remove_duplicate=False))
    named.update(module.named_buffers(remove_duplicate=False))
    return named


def _untied(module, given):
    """``given`` plus, for every tied name given, the same value under its other names."""
    by_tensor = {}
    for name, t in _named_tensors(module).items():
        by_tensor.setdefault(id(t), set()).add(name)
    tied = {name: names for names in by_tensor.values() if len(names) > 1 for name in names}
    given_tied = {name for name in given if name in tied}
    for name in given_tied:
        names = tied[name]
        if len(names & given_tied) > 1 and len({id(given[n]) for n in names if n in given}) != 1:
            raise ValueError(f"functional_call got multiple values for keys {sorted(names)}, which are tied. "
                             "Consider using tie_weights=False")
    out = dict(given)
    for name in given_tied:
        for other in tied[name]:
            out[other] = given[name]
    return out


def _swap(module, name, tensor):
    """Puts ``tensor`` at ``module``'s qualified ``name``; returns what was there (or _MISSING)."""
    prefix, _, attr = name.rpartition(".")
    owner = module.get_submodule(prefix) if prefix else module
    if tensor is not _MISSING and tensor is not None and not isinstance(tensor, Tensor):
        raise TypeError(f"{tensor} is not an instance of torch.Tensor")
    for store in (owner._parameters, owner._buffers):
        if attr in store:
            orig = store[attr]
            if tensor is _MISSING:
                del store[attr]
            else:
                store[attr] = tensor
            return orig
    orig = getattr(owner, attr, _MISSING)
    if tensor is _MISSING:
        if orig is not _MISSING:
            delattr(owner, attr)
    else:
        object.__setattr__(owner, attr, tensor)
    return orig


@contextlib.contextmanager
def _reparametrize(module, given, tie_weights, strict):
    values = _untied(module, given) if tie_weights else given
    if strict:
        valid = set(_named_tensors(module))
        missing, unexpected = sorted(valid - set(values)), sorted(set(values) - valid)
        msgs = []
        if unexpected:
            msgs.append(f"Unexpected key(s): {', '.join(map(repr, unexpected))}.")
        if missing:
            msgs.append(f"Missing key(s): {', '.join(map(repr, missing))}.")
        if msgs:
            raise RuntimeError("Error(s) in reparametrizing for {}:\n\t{}".format(module._get_name(), "\n\t".join(msgs)))
    originals = {}
    try:
        for name, t in values.items():
            originals[name] = _swap(module, name, t)
        yield
    finally:
        # A module that assigned a new tensor in forward (self.foo = self.foo + 1) hands it back.
        current = {name: _swap(module, name, orig) for name, orig in originals.items()}
        given.update({k: current[k] for k in given if k in current})


def stack_module_state(models):
    """Stacks the parameters and buffers of models of one class, for ensembling with ``vmap``.

    Args:
        models (Sequence[torch.nn.Module]): models of the same class, all in training or all
            in eval mode.

    Returns:
        ``(params, buffers)``: dicts from name to the stacked tensors (a new leading dimension,
        one entry per model). Stacked parameters are new leaves that require grad.

    Example::

        >>> models = [torch.nn.Linear(1, 1) for _ in range(5)]
        >>> params, buffers = torch.func.stack_module_state(models)
        >>> params["weight"].shape
        torch.Size([5, 1, 1])
    """
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    kind = type(models[0])
    if not all(type(m) is kind for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    params = {k: _stacked_leaf([p[k] for p in all_params], k) for k in all_params[0]}
    all_buffers = [dict(m.named_buffers()) for m in models]
    buffers = {k: _stacked_leaf([b[k] for b in all_buffers], k) for k in all_buffers[0]}
    return params, buffers


def _stacked_leaf(tensors, name):
    from ..ops.joining import stack
    needs = [t.requires_grad for t in tensors]
    if any(needs) and not all(needs):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = stack(tensors)
    if all(needs):
        result = result.detach().requires_grad_()
    return result
