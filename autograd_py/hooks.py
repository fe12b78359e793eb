"""Running backward hooks the way PyTorch's engine does, with its checks on what a hook returns.

Per node, in order: the tensor hooks of its outputs (``tensor.register_hook``, one gradient at a
time), the ``retain_grad`` step, the node's pre-hooks (``grad_fn.register_prehook``, the tuple of
gradients), the formula, then its post-hooks (``grad_fn.register_hook``).
"""


def _hook_name(hook):
    name = getattr(hook, "__name__", None)
    return name if isinstance(name, str) else "<unknown>"


def _legacy_type(t):
    from .dtypes import from_numpy_dtype
    return "torch." + from_numpy_dtype(t._data.dtype).legacy_name


def check_single(original, result, hook):
    """PyTorch's check of one value a hook returned in place of ``original``."""
    from ._tensor import Tensor
    if result is None:
        return
    if original is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    if result._data.dtype != original._data.dtype:
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the type of value (was "
                           f"{_legacy_type(original)} got {_legacy_type(result)})")
    if result._data.shape != original._data.shape:
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the size of value")


def _check_tuple(previous, result, hook):
    if type(result) is not tuple:
        raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
    if len(result) != len(previous):
        raise RuntimeError(f"hook '{_hook_name(hook)}' has returned an incorrect number of values "
                           f"(got {len(result)}, but expected {len(previous)})")
    for old, new in zip(previous, result):
        check_single(old, new, hook)


def run_tensor_pre_hooks(node, grads, listener=None):
    """Tensor hooks (each may replace its output's gradient), then ``retain_grad``."""
    hooks = node._pre_hooks
    if hooks:
        for nr, fn in list(hooks.values()):
            if grads[nr] is None:
                continue
            new = fn(grads[nr])
            if listener is not None:
                listener({"event": "hook", "node": id(node), "output_nr": nr, "grad": grads[nr],
                          "replaced_with": new})
            if new is not None:
                check_single(grads[nr], new, fn)
                grads[nr] = new
    refs = node._retain_grad_refs
    if refs:
        for nr, ref in refs.items():
            t = ref()
            if t is not None and grads[nr] is not None:
                g = grads[nr]
                if t._grad is None:
                    t._grad = _retained_copy(g)
                else:
                    t._grad = t._grad + g
    return grads


def _retained_copy(g):
    """PyTorch's retain_grad hook stores ``grad.clone(at::MemoryFormat::Contiguous)`` (recorded as
    CloneBackward0 under create_graph)."""
    from .ops.base import _make, grad_on, np, record
    from .ops.pointwise import CloneBackward0
    out = _make(np.array(g._data, order="C"))
    if grad_on(g):
        record(out, CloneBackward0(), (g,))
    return out


def run_pre_hooks(node, grads):
    """``grad_fn.register_prehook`` hooks: each sees the tuple of gradients and may replace it."""
    values = tuple(grads)
    for fn in list(node._node_pre_hooks.values()):
        new = fn(values)
        if new is not None:
            _check_tuple(values, new, fn)
            values = new
    return list(values)


def run_post_hooks(node, grad_inputs, grad_outputs):
    """``grad_fn.register_hook`` hooks: each sees (grad_inputs, grad_outputs) and may replace grad_inputs."""
    values, outputs = tuple(grad_inputs), tuple(grad_outputs)
    for fn in list(node._hooks.values()):
        new = fn(values, outputs)
        if new is not None:
            _check_tuple(values, new, fn)
            values = new
    return list(values)
