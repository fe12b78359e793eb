"""Module backward hooks: ``register_full_backward_hook``, its pre-hook, and the deprecated kind.

As in PyTorch (``torch.utils.hooks.BackwardHook``), a module with full backward hooks wraps the
tensors it receives and the tensors it returns in an identity ``BackwardHookFunction``. The node
on the outputs sees the gradients of the outputs (and runs the pre-hooks); the node on the inputs
sees the gradients of the inputs and calls the hooks with both. Hooks therefore fire when backward
reaches the module, last layer first.
"""
import os
import sys
import warnings

from ... import grad_mode
from ..._tensor import Tensor
from ...node import RemovableHandle

_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOTH_KINDS = ("Cannot use both regular backward hooks and full backward hooks on a single Module. Please use "
              "only one of them.")
NO_INPUT_GRAD = ("Full backward hook is firing when gradients are computed with respect to module outputs since no "
                 "inputs require gradients. See https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                 "#torch.nn.Module.register_full_backward_hook for more details.")


def _caller_stacklevel():
    """The ``stacklevel`` that points a warning at the first frame outside autograd_py (the user's line)."""
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def _registered(hooks, hook, prepend):
    handle = RemovableHandle(hooks)
    if prepend:
        earlier = list(hooks.items())
        hooks.clear()
        hooks[handle.id] = hook
        hooks.update(earlier)
    else:
        hooks[handle.id] = hook
    return handle


class ModuleBackwardHooks:
    """The backward-hook half of ``nn.Module`` (a base class of it)."""

    _is_full_backward_hook = None

    def register_full_backward_hook(self, hook, prepend=False):
        """Registers ``hook(module, grad_input, grad_output) -> tuple of Tensors or None``.

        It runs once the gradients with respect to the module's positional inputs are computed
        (with respect to its outputs if no input requires grad). ``grad_input`` holds None for
        non-Tensor inputs; a returned tuple replaces it. The module's outputs (and the inputs its
        ``forward`` sees) become outputs of ``BackwardHookFunctionBackward``.

        Args:
            hook (Callable): the hook.
            prepend (bool, optional): run it before the hooks already registered. Defaults to ``False``.

        Returns:
            :class:`torch.utils.hooks.RemovableHandle`: ``handle.remove()`` unregisters it.

        Example::

            >>> lin = nn.Linear(3, 1)
            >>> h = lin.register_full_backward_hook(lambda m, gin, gout: print(gout[0].shape))
            >>> lin(torch.ones(2, 3, requires_grad=True)).sum().backward()
            torch.Size([2, 1])
        """
        if self._is_full_backward_hook is False:
            raise RuntimeError(BOTH_KINDS)
        self._is_full_backward_hook = True
        return _registered(self._backward_hooks, hook, prepend)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """Registers ``hook(module, grad_output) -> tuple of Tensors or None``, run when the gradients
        with respect to the module's outputs are known; a returned tuple replaces ``grad_output``.

        Returns:
            :class:`torch.utils.hooks.RemovableHandle`: ``handle.remove()`` unregisters it.
        """
        return _registered(self._backward_pre_hooks, hook, prepend)

    def register_backward_hook(self, hook):
        """The deprecated backward hook: ``hook(module, grad_input, grad_output)`` on the last node
        of ``forward`` only (its ``grad_input`` are that node's inputs). Prefer
        :meth:`register_full_backward_hook`.
        """
        if self._is_full_backward_hook is True:
            raise RuntimeError(BOTH_KINDS)
        self._is_full_backward_hook = False
        return _registered(self._backward_hooks, hook, False)

    def _backward_hook_setup(self, args):
        """Wraps the positional inputs before ``forward``; returns ``(BackwardHook or None, args)``."""
        full = list(self._backward_hooks.values()) if self._is_full_backward_hook else []
        pre = list(self._backward_pre_hooks.values())
        if not (full or pre):
            return None, args
        bw_hook = BackwardHook(self, full, pre)
        return bw_hook, bw_hook.setup_input_hook(args)

    def _backward_hook_finish(self, bw_hook, args, result):
        """Wraps the outputs after ``forward`` (and its forward hooks); attaches deprecated hooks."""
        if bw_hook is not None:
            if not isinstance(result, (Tensor, tuple)):
                warnings.warn("For backward hooks to be called, module output should be a Tensor or a tuple of "
                              f"Tensors but received {type(result)}", stacklevel=_caller_stacklevel())
            result = bw_hook.setup_output_hook(result)
        if self._is_full_backward_hook is False and self._backward_hooks:
            _attach_deprecated(self, args, result)
        return result


class BackwardHook:
    """One module call's hook state: the gradients of its outputs, held until those of its inputs."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.module, self.user_hooks, self.user_pre_hooks = module, user_hooks, user_pre_hooks
        self.grad_outputs = None
        self.n_outputs = self.n_inputs = -1
        self.output_tensors_index = self.input_tensors_index = None

    @staticmethod
    def _pack_with_none(indices, values, size):
        res = [None] * size
        for idx, val in zip(indices, values):
            res[idx] = val
        return tuple(res)

    @staticmethod
    def _unpack_none(indices, values):
        return tuple(values[idx] for idx in indices)

    def _apply_on_tensors(self, register, args):
        from ._functions import BackwardHookFunction
        tensors_idx = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in tensors_idx]
        if not (any(t.requires_grad for t in tensors) and grad_mode.is_grad_enabled()):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        register(next(t.grad_fn for t in new_tensors if t.grad_fn is not None))
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors):
            arg_list[idx] = val
        return (tuple(arg_list) if type(args) is tuple else type(args)(*arg_list)), tensors_idx

    def setup_input_hook(self, args):
        def register(grad_fn):
            def hook(grad_input, _):
                if self.grad_outputs is None:
                    return None  # the gradient reached the inputs without passing the outputs
                res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
                for user_hook in self.user_hooks:
                    out = user_hook(self.module, res, self.grad_outputs)
                    if out is None:
                        continue
                    if len(out) != len(res):
                        raise RuntimeError("Backward hook returned an invalid number of grad_input, "
                                           f"got {len(out)}, but expected {len(res)}")
                    res = out
                self.grad_outputs = None
                return self._unpack_none(self.input_tensors_index, res)
            grad_fn.register_hook(hook)

        res, self.input_tensors_index = self._apply_on_tensors(register, args)
        self.n_inputs = len(args)
        return res

    def setup_output_hook(self, args):
        def register(grad_fn):
            def hook(_, grad_output):
                self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
                for user_pre_hook in self.user_pre_hooks:
                    replaced = user_pre_hook(self.module, self.grad_outputs)
                    if replaced is None:
                        continue
                    if len(replaced) != len(self.grad_outputs):
                        raise RuntimeError("Backward pre hook returned an invalid number of grad_output, "
                                           f"got {len(replaced)}, but expected {len(self.grad_outputs)}")
                    self.grad_outputs = replaced
                local_grad_outputs = self.grad_outputs
                if self.input_tensors_index is None:
                    # No input needs a gradient, so the input node never runs: call the hooks now.
                    warnings.warn(NO_INPUT_GRAD, UserWarning, stacklevel=_caller_stacklevel())
                    grad_inputs = self._pack_with_none([], [], self.n_inputs)
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not (isinstance(res, tuple) and all(r is None for r in res)):
                            raise RuntimeError("Backward hook for Modules where no input requires gradient should "
                                               "always return None or None for all gradients.")
                    self.grad_outputs = None
                return tuple(local_grad_outputs[i] for i in self.output_tensors_index)
            grad_fn.register_hook(hook)

        is_tuple = isinstance(args, tuple)
        res, self.output_tensors_index = self._apply_on_tensors(register, args if is_tuple else (args,))
        self.n_outputs = len(args) if is_tuple else 1
        return res if is_tuple else res[0]


def _attach_deprecated(module, args, result):
    """``register_backward_hook``: the hooks go on the grad_fn of the first output tensor."""
    var = result
    while not isinstance(var, Tensor):
        var = next(v for v in var.values() if isinstance(v, Tensor)) if isinstance(var, dict) else var[0]
    grad_fn = var.grad_fn
    if grad_fn is None:
        return
    for user_hook in module._backward_hooks.values():
        grad_fn.register_hook(_with_module(user_hook, module))
    _warn_if_incomplete(args, result, grad_fn)


def _with_module(user_hook, module):
    def hook(grad_input, grad_output):
        return user_hook(module, grad_input, grad_output)
    hook.__name__ = getattr(user_hook, "__name__", "hook")
    return hook


def _warn_if_incomplete(inputs, result, grad_fn):
    """PyTorch's FutureWarnings for the cases where a deprecated hook misses some gradients."""
    def warn(message):
        warnings.warn(message, FutureWarning, stacklevel=_caller_stacklevel())

    if not isinstance(result, Tensor):
        if not (isinstance(result, tuple) and all(isinstance(r, Tensor) for r in result)):
            return warn("Using non-full backward hooks on a Module that does not return a single Tensor or a tuple "
                        "of Tensors is deprecated and will be removed in future versions. This hook will be missing "
                        "some of the grad_output. Please use register_full_backward_hook to get the documented "
                        "behavior.")
    else:
        result = (result,)
    if not isinstance(inputs, Tensor):
        if not (isinstance(inputs, tuple) and all(isinstance(i, Tensor) for i in inputs)):
            return warn("Using non-full backward hooks on a Module that does not take as input a single Tensor or a "
                        "tuple of Tensors is deprecated and will be removed in future versions. This hook will be "
                        "missing some of the grad_input. Please use register_full_backward_hook to get the "
                        "documented behavior.")
    else:
        inputs = (inputs,)
    out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
    if not out_grad_fn or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
        warn("Using a non-full backward hook when outputs are nested in python data structure is deprecated and "
             "will be removed in future versions. This hook will be missing some grad_output.")
    elif len(out_grad_fn) > 1:
        warn("Using a non-full backward hook when outputs are generated by different autograd Nodes is deprecated "
             "and will be removed in future versions. This hook will be missing some grad_output. Please use "
             "register_full_backward_hook to get the documented behavior.")
    elif {i.grad_fn for i in inputs if i.grad_fn is not None} != {n[0] for n in grad_fn.next_functions}:
        warn("Using a non-full backward hook when the forward contains multiple autograd Nodes is deprecated and "
             "will be removed in future versions. This hook will be missing some grad_input. Please use "
             "register_full_backward_hook to get the documented behavior.")
