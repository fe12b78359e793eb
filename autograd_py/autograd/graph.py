"""``torch.autograd.graph``: the ``Node`` base class, saved-tensor hooks and multi-grad hooks."""
import contextlib
import functools

from .. import engine
from .. import saved_tensor as _saved
from ..engine import GradientEdge
from ..node import Node, RemovableHandle

__all__ = ["saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks", "register_multi_grad_hook",
           "allow_mutation_on_saved_tensors", "Node", "GradientEdge", "get_gradient_edge", "increment_version"]


class saved_tensors_hooks:
    """Context-manager that sets a pair of pack / unpack hooks for saved tensors.

    Every tensor an operation saves for backward inside the context (including
    ``ctx.save_for_backward`` in a custom Function) is stored as ``pack_hook(tensor)``;
    ``unpack_hook`` turns that back into a tensor when backward, or ``grad_fn._saved_*``,
    needs it. Only the innermost pair applies when contexts are nested.

    Args:
        pack_hook (callable): ``pack_hook(tensor) -> Any``.
        unpack_hook (callable): ``unpack_hook(packed) -> Tensor``.

    Example::

        >>> def pack_hook(x):
        ...     print("Packing", x)
        ...     return x.detach()
        >>> def unpack_hook(x):
        ...     print("Unpacking", x)
        ...     return x
        >>> a = torch.ones(5, requires_grad=True)
        >>> b = torch.ones(5, requires_grad=True) * 2
        >>> with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
        ...     y = a * b
        Packing tensor([2., 2., 2., 2., 2.], grad_fn=<MulBackward0>)
        Packing tensor([1., 1., 1., 1., 1.], requires_grad=True)
        >>> y.sum().backward()
        Unpacking tensor([2., 2., 2., 2., 2.])
        Unpacking tensor([1., 1., 1., 1., 1.])
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _saved.disabled_message[0] is not None:
            raise RuntimeError(_saved.disabled_message[0])
        _saved.default_hooks.append((self.pack_hook, self.unpack_hook))

    def __exit__(self, *args):
        _saved.default_hooks.pop()


saved_tensors_hooks.__module__ = "torch.autograd.graph"


class save_on_cpu(saved_tensors_hooks):
    """Context-manager under which tensors saved by the forward pass are stored on the CPU.

    Everything here already lives on the CPU, so each saved tensor is packed as
    ``(tensor.device, tensor)`` (a copy when ``pin_memory=True``) and unpacked unchanged.

    Args:
        pin_memory (bool): copy the saved tensors into fresh buffers. Defaults to ``False``.
        device_type (str): the accelerator's name. Defaults to ``"cuda"``.

    Example::

        >>> a = torch.ones(3, requires_grad=True)
        >>> with torch.autograd.graph.save_on_cpu():
        ...     y = a * a
        >>> y.grad_fn._raw_saved_self.data
        (device(type='cpu'), tensor([1., 1., 1.], requires_grad=True))
    """

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            if not pin_memory:
                return (tensor.device, tensor.cpu())
            packed = tensor.detach().clone()
            return (tensor.device, packed)

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


save_on_cpu.__module__ = "torch.autograd.graph"


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """Context-manager that disables saved-tensor hooks: entering ``saved_tensors_hooks`` (or
    ``save_on_cpu``) inside it raises a RuntimeError with ``error_message``.

    Args:
        error_message (str): the message of that error.

    Example::

        >>> message = "saved tensors default hooks are disabled"
        >>> with torch.autograd.graph.disable_saved_tensors_hooks(message):
        ...     with torch.autograd.graph.save_on_cpu():
        ...         pass
        Traceback (most recent call last):
        RuntimeError: saved tensors default hooks are disabled
    """
    previous = _saved.disabled_message[0]
    try:
        if _saved.default_hooks:
            # PyTorch refuses to disable hooks that are already active, with the same message.
            raise RuntimeError(error_message)
        _saved.disabled_message[0] = error_message
        yield
    finally:
        _saved.disabled_message[0] = previous


def get_gradient_edge(tensor):
    """The edge where the gradient of ``tensor`` is computed: ``autograd.grad(loss, edge)`` equals
    ``autograd.grad(loss, tensor)``, and keeps working once ``tensor`` itself is gone.

    Args:
        tensor (Tensor): a tensor that requires grad.

    Returns:
        GradientEdge: its ``grad_fn`` (a leaf's ``AccumulateGrad``) and ``output_nr``.
    """
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require "
                           "gradients")
    return GradientEdge(_grad_fn_or_accumulator(tensor), tensor._output_nr)


def increment_version(tensor):
    """Bumps the version counter of ``tensor`` (or of each tensor in an iterable), as an in-place
    write that autograd did not see would have."""
    from .._tensor import Tensor
    for t in (tensor,) if isinstance(tensor, Tensor) else tensor:
        _saved.bump_version(t)


class _MultiHandle(RemovableHandle):
    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for handle in self.handles:
            handle.remove()


_MultiHandle.__module__ = "torch.autograd.graph"


def _grad_fn_or_accumulator(t):
    if t._requires_grad and t._grad_fn is None:
        return t._get_accumulator()
    if t._grad_fn is None:
        raise AssertionError("Expected gradient function to be set")
    return t._grad_fn


def _current_task():
    task = engine.running_task()
    if task is None:
        raise AssertionError("expected this hook to be called inside a backward call")
    return task


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """Registers a hook called once per backward pass with the gradients of several tensors.

    With ``mode="all"``, ``fn(grads)`` runs once the gradient of every tensor of ``tensors``
    that this pass computes is known; ``grads`` holds None for the others. With
    ``mode="any"``, ``fn(grad)`` runs with the first of those gradients to be computed.

    Args:
        tensors (sequence of Tensor): the tensors to watch.
        fn (callable): the hook.
        mode (str): ``"all"`` or ``"any"``. Defaults to ``"all"``.

    Returns:
        A handle with ``remove()``.

    Example::

        >>> a = torch.tensor([1., 2.], requires_grad=True)
        >>> b = torch.tensor([3., 4.], requires_grad=True)
        >>> c = a * b
        >>> def fn(grads):
        ...     print([g is not None for g in grads])
        >>> handle = torch.autograd.graph.register_multi_grad_hook((a, b, c), fn)
        >>> c.sum().backward(retain_graph=True)
        [True, True, True]
        >>> c.sum().backward(inputs=(a,))
        [True, False, True]
    """
    supported_modes = ("all", "any")
    if mode not in supported_modes:
        raise ValueError(f"Expects mode to be one of {supported_modes} but got {mode}")

    if mode == "all":
        count, buffer = {}, {}
        nb_calls = None
        grad_fns = [_grad_fn_or_accumulator(t) for t in tensors]

        def get_inner_hook(idx):
            def inner_hook(grad):
                nonlocal nb_calls
                task = _current_task()
                seen = count.get(task.id, 0)
                buf = buffer.setdefault(task.id, [None] * len(tensors))
                count[task.id] = seen + 1
                if seen == 0:
                    nb_calls = sum(map(task.will_execute, grad_fns))
                buf[idx] = grad
                if seen == nb_calls - 1:
                    fn(buf)
                    del count[task.id]
                    del buffer[task.id]
            return inner_hook

        handles = tuple(t.register_hook(get_inner_hook(i)) for i, t in enumerate(tensors))
    else:
        ran_hook = {}

        @functools.wraps(fn)
        def wrapped_fn(grad):
            task = _current_task()
            if ran_hook.get(task.id):
                return
            ran_hook[task.id] = True
            fn(grad)

        handles = tuple(t.register_hook(wrapped_fn) for t in tensors if t.requires_grad)
    return _MultiHandle(handles)


# Last: it builds on saved_tensors_hooks above.
from .saved_mutation import allow_mutation_on_saved_tensors  # noqa: E402
