"""``torch.nn.Module``: parameters, buffers and submodules registered by attribute assignment."""
from collections import OrderedDict

from ...node import RemovableHandle, _HookDict
from ..._tensor import Tensor
from ..parameter import Parameter
from . import _state
from ._backward_hook import ModuleBackwardHooks
from ._dtype_device import ModuleDtypeDevice


def typename(obj):
    """``torch.typename``: 'torch.FloatTensor' for tensors, else the qualified class name."""
    if isinstance(obj, Tensor):
        return "torch." + obj.dtype.legacy_name
    cls = type(obj)
    module = cls.__module__
    return cls.__qualname__ if module in ("builtins", None) else f"{module}.{cls.__qualname__}"


def _addindent(text, spaces):
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * spaces + line for line in lines[1:])


class Module(ModuleDtypeDevice, ModuleBackwardHooks):
    """Base class for all neural network modules.

    Subclasses set parameters and submodules as attributes in ``__init__`` (after calling
    ``super().__init__()``) and compute their output in ``forward``; calling the module runs
    ``forward``.

    Example::

        >>> class Net(nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc = nn.Linear(2, 1)
        ...     def forward(self, x):
        ...         return torch.sigmoid(self.fc(x))
        >>> Net()
        Net(
          (fc): Linear(in_features=2, out_features=1, bias=True)
        )
    """

    training = True

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'" if kwargs else
                            f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        set_ = object.__setattr__
        set_(self, "training", True)
        set_(self, "_parameters", OrderedDict())
        set_(self, "_buffers", OrderedDict())
        set_(self, "_non_persistent_buffers_set", set())
        set_(self, "_modules", OrderedDict())
        set_(self, "_forward_hooks", _HookDict())
        set_(self, "_forward_pre_hooks", _HookDict())
        set_(self, "_backward_hooks", OrderedDict())
        set_(self, "_backward_pre_hooks", OrderedDict())

    # ---------------------------------------------------------------- forward
    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        for hook in list(self._forward_pre_hooks.values()):
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        backward_hooks = self.__dict__.get("_backward_hooks") or self.__dict__.get("_backward_pre_hooks")
        if backward_hooks:
            bw_hook, args = self._backward_hook_setup(args)
        output = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks.values()):
            result = hook(self, args, output)
            if result is not None:
                output = result
        if backward_hooks:
            output = self._backward_hook_finish(bw_hook, args, output)
        return output

    def register_forward_pre_hook(self, hook):
        """Registers ``hook(module, args) -> None or new args``, run before ``forward``."""
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        return handle

    def register_forward_hook(self, hook):
        """Registers ``hook(module, args, output) -> None or new output``, run after ``forward``."""
        handle = RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        return handle

    # ---------------------------------------------------------------- registration
    def register_parameter(self, name, param):
        """Adds a parameter (a :class:`Parameter` or ``None``) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        _check_name(self, name, "parameter", self._parameters)
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        elif param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                             f"created explicitly. To express '{name}' as a function of another Tensor, compute "
                             "the value in the forward() method.")
        else:
            self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Adds a tensor that is saved in ``state_dict`` (if persistent) but is not a parameter."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        _check_name(self, name, "buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Adds a child module under ``name``."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        _check_name(self, name, "module", self._modules)
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            _remove_from(self, name, self.__dict__, self._buffers, self._modules)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                _remove_from(self, name, self.__dict__, self._parameters, self._buffers)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(f"cannot assign '{typename(value)}' as child module '{name}' "
                                    "(torch.nn.Module or None expected)")
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, Tensor):
                        raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                        "(torch.nn.Buffer, torch.Tensor or None expected)")
                    buffers[name] = value
                else:
                    object.__setattr__(self, name, value)

    def __getattr__(self, name):
        # Only called when normal lookup fails: parameters, buffers and children live in dicts.
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            if store in d and name in d[store]:
                return d[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for store in ("_parameters", "_buffers", "_modules"):
            d = self.__dict__.get(store)
            if d is not None and name in d:
                del d[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        keys = list(object.__dir__(self)) + list(self._parameters) + list(self._modules) + list(self._buffers)
        return sorted(k for k in set(keys) if not k[0].isdigit())

    # ---------------------------------------------------------------- traversal
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """Yields ``(name, module)`` for this module and every descendant, depth first."""
        if memo is None:
            memo = set()
        stack = [(prefix, self)]
        while stack:
            name, module = stack.pop()
            if remove_duplicate:
                if id(module) in memo:
                    continue
                memo.add(id(module))
            yield name, module
            children = [(name + ("." if name else "") + key, child)
                        for key, child in module._modules.items() if child is not None]
            stack.extend(reversed(children))

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in seen:
                seen.add(id(module))
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, store, prefix, recurse, remove_duplicate):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for key, value in module.__dict__[store].items():
                if value is None or (remove_duplicate and id(value) in seen):
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield module_prefix + ("." if module_prefix else "") + key, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """Yields ``(name, parameter)``: own parameters first, then each child's, in registration order."""
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_submodule(self, target):
        module = self
        for item in target.split(".") if target else []:
            if item not in module._modules:
                raise AttributeError(f"{type(module).__name__} has no attribute `{item}`")
            module = module._modules[item]
        return module

    def apply(self, fn):
        """Calls ``fn`` on every submodule (children before parents), then returns this module."""
        # Post-order without recursion: a module is visited once all its children have been.
        stack = [(self, False)]
        while stack:
            module, expanded = stack.pop()
            if expanded:
                fn(module)
                continue
            stack.append((module, True))
            stack.extend((child, False) for child in reversed(list(module.children())))
        return self

    # ---------------------------------------------------------------- modes and gradients
    def train(self, mode=True):
        """Sets training mode (Dropout is active) on this module and its descendants. Returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self):
        """Sets evaluation mode (``train(False)``). Returns self."""
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Resets the ``.grad`` of every parameter: to ``None`` (default) or to zeros in place."""
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    _zero_grad_in_place(p)

    # ---------------------------------------------------------------- state dict
    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """An OrderedDict from names to parameters and persistent buffers (detached, sharing storage).

        Example::

            >>> list(nn.Linear(2, 1).state_dict())
            ['weight', 'bias']
        """
        return _state.state_dict(self, destination, prefix, keep_vars)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copies values from ``state_dict`` into this module's parameters and buffers, in place.

        Args:
            state_dict (dict): names to tensors, as :meth:`state_dict` returns.
            strict (bool, optional): raise on missing or unexpected keys. Defaults to ``True``.

        Returns:
            ``_IncompatibleKeys(missing_keys, unexpected_keys)``; it prints
            ``<All keys matched successfully>`` when both are empty.
        """
        return _state.load_state_dict(self, state_dict, strict)

    # ---------------------------------------------------------------- printing
    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        """The text inside this module's parentheses; subclasses override it."""
        return ""

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): " + _addindent(repr(module), 2) for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"


def _check_name(module, name, kind, store):
    if not isinstance(name, str):
        raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
    if "." in name:
        raise KeyError(f"{kind} name can't contain \".\"")
    if name == "":
        raise KeyError(f"{kind} name can't be empty string \"\"")
    if name not in store and hasattr(module, name):
        raise KeyError(f"attribute '{name}' already exists")


def _remove_from(module, name, *stores):
    for store in stores:
        if name in store:
            del store[name]
    module._non_persistent_buffers_set.discard(name)


def _zero_grad_in_place(p):
    grad = p.grad
    if grad.grad_fn is not None:
        grad.detach_()
    else:
        grad.requires_grad_(False)
    grad.zero_()
