"""``torch.autograd.Function``: user-defined ops with their own forward and backward."""
import functools
import inspect
import warnings
import weakref

import numpy as np

from .. import forward_mode, grad_mode
from .._tensor import Tensor, _make
from ..node import FREED_MESSAGE, Node, SavedTensor
from . import function_jvp
from ..saved_tensor import bump_version

DIRTY_NOT_RETURNED = ("Some elements marked as dirty during the forward method were not returned as output. The "
                      "inputs that are modified inplace must all be outputs of the Function.")
DIRTY_NOT_INPUT = ("ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have been "
                   "mutated should be passed to ctx.mark_dirty(). (Triggered internally at "
                   "/__w/pytorch/pytorch/torch/csrc/autograd/custom_function.cpp:320.)")
DIRTY_VIEW_MULTI = (
    "If your Function modifies inplace an input that is a view of another Tensor, your Function cannot return "
    "more than one Tensor. This is not supported by the current autograd engine. You should either make sure "
    "the input is not a view (using .clone() for example) or make your Function only return one Tensor "
    "(potentially splitting it into two Functions: one doing the inplace that returns a single Tensor and a "
    "second one that does the other operations). You can ask on the forum https://discuss.pytorch.org/ if you "
    "need help to do this change.")


class FunctionCtx:
    """The ``ctx`` passed to ``forward``/``backward``; it is the op's node in the graph."""

    def save_for_backward(self, *tensors):
        """Saves tensors for backward; they are version-checked and freed after backward."""
        self._to_save = tensors

    def save_for_forward(self, *tensors):
        """Saves tensors for ``jvp``, which reads them as ``ctx.saved_tensors``."""
        for t in tensors:
            if not (isinstance(t, Tensor) or t is None):
                raise AssertionError("save_for_forward expects all arguments to be tensors; you should save "
                                     "non-tensors as attributes on ctx.")
        self._to_save_forward = tensors

    def mark_dirty(self, *args):
        """Marks input tensors that ``forward`` modified in place; they must be returned as outputs."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        self._non_differentiable = args

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


class BackwardCFunction(FunctionCtx, Node):
    """The node of one ``Function.apply`` call; its class is named ``<Function>Backward``."""

    materialize_grads = True
    supports_batched = False  # user code expects one gradient at a time
    _to_save = ()

    def __call__(self, *args, **kwargs):
        # A custom Function's node is run with ``apply``, as in PyTorch.
        raise TypeError(f"'{type(self).__name__}' object is not callable")

    def name(self):
        return type(self).__name__

    @property
    def saved_tensors(self):
        if "_saved_for_forward" in self.__dict__:  # inside jvp: what save_for_forward got
            return self._saved_for_forward
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        if self._vars is None:
            return ()
        return tuple(s._unpack(self) if isinstance(s, SavedTensor) else s for s in self._vars["tensors"])

    saved_variables = saved_tensors

    @property
    def _raw_saved_tensors(self):
        if self._vars is None:
            return ()
        for s in self._vars["tensors"]:
            if isinstance(s, SavedTensor):
                s.owner = weakref.ref(self)
        return tuple(self._vars["tensors"])

    def _get_user_fn(self):
        """The user's ``backward``, or its ``vjp`` when that is the one overridden."""
        cls = self._forward_cls
        if cls.backward is not Function.backward and cls.vjp is not Function.vjp:
            raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not allowed. You "
                               "should only implement one of them.")
        return cls.vjp if cls.vjp is not Function.vjp else cls.backward

    def apply(self, *grads):
        """Runs the user's ``backward`` on ``grads`` as given (what calling ``grad_fn.apply`` does)."""
        return self._get_user_fn()(self, *grads)

    def _apply(self, grads):
        if self.materialize_grads:
            grads = [g if g is not None else _make(np.zeros(shape, dtype)) for g, (shape, dtype)
                     in zip(grads, self._output_meta)]
        result = self._get_user_fn()(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        if len(result) != len(self._arg_is_tensor):
            # PyTorch allows trailing Nones to be omitted only when they are all None.
            if len(result) > len(self._arg_is_tensor) and all(r is None for r in result[len(self._arg_is_tensor):]):
                result = result[:len(self._arg_is_tensor)]
            else:
                raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                                   f"(expected {len(self._arg_is_tensor)}, got {len(result)})")
        out = []
        for is_tensor, g in zip(self._arg_is_tensor, result):
            if is_tensor:
                out.append(g)
            elif g is not None:
                raise RuntimeError(f"function {self.name()} returned a gradient different than None at "
                                   "position for a non-Tensor input")
        return out


class FunctionMeta(type):
    """Gives every Function subclass its own node class, ``<Name>Backward``."""

    def __init__(cls, name, bases, attrs):
        backward_cls = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls})
        backward_cls.__module__ = "torch.autograd.function"
        cls._backward_cls = backward_cls
        super().__init__(name, bases, attrs)


class Function(FunctionCtx, metaclass=FunctionMeta):
    """Base class for custom differentiable ops.

    Subclass it with static ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)``, then call
    ``MyFn.apply(*args)``. ``backward`` returns one gradient per ``forward`` argument (None for
    non-tensors or inputs that need none).

    Example::

        >>> class Exp(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, i):
        ...         result = i.exp()
        ...         ctx.save_for_backward(result)
        ...         return result
        ...     @staticmethod
        ...     def backward(ctx, grad_output):
        ...         (result,) = ctx.saved_tensors
        ...         return grad_output * result
        >>> x = torch.tensor([0., 1.], requires_grad=True)
        >>> Exp.apply(x).sum().backward()
        >>> x.grad
        tensor([1.0000, 2.7183])
    """

    def __init__(self, *args, **kwargs):
        warnings.warn(f"{self.__class__} should not be instantiated. Methods on autograd functions are all static, "
                      "so you should invoke them on the class itself. Instantiating an autograd function will "
                      "raise an error in a future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use "
                           "new-style autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        """The outputs' tangents from the inputs' (forward mode); one per ``forward`` output, None
        for outputs that are not differentiable. ``ctx.saved_tensors`` holds what ``forward`` gave
        ``ctx.save_for_forward``; inputs without a tangent get zeros (None for non-tensors)."""
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use it with "
                                  "forward mode AD.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError

    # torch.vmap support: a ``vmap`` staticmethod, or ``generate_vmap_rule = True`` to batch the
    # Function's own ops (both are kept here for the vmap transform).
    generate_vmap_rule = False

    @staticmethod
    def vmap(info, in_dims, *args):
        raise NotImplementedError("To use autograd.Function with vmap, you must either override the vmap staticmethod "
                                  "or set generate_vmap_rule=True.")

    @classmethod
    def apply(cls, *args, **kwargs):
        from ..batching.batched import innermost_level, levels as vmap_levels
        if vmap_levels:
            level = innermost_level(args, kwargs)
            if level is not None:
                from ..batching import function_rule
                return function_rule.apply(cls, level, args, kwargs)
        ctx = cls._backward_cls()
        tensor_args = [a for a in args if isinstance(a, Tensor)]
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        ctx._arg_is_tensor = tuple(isinstance(a, Tensor) for a in args)
        uses_setup = cls.setup_context is not Function.setup_context
        if uses_setup:
            args, kwargs = _bind_defaults(cls.forward, args, kwargs)
        fw_on = bool(forward_mode.levels) and forward_mode.has_dual(tensor_args)
        with grad_mode.no_grad(), function_jvp.forward_disabled():
            output = cls.forward(*args, **kwargs) if uses_setup else cls.forward(ctx, *args, **kwargs)
        if uses_setup:
            with function_jvp.forward_disabled():
                cls.setup_context(ctx, args, output)
        is_tuple = isinstance(output, tuple)
        outputs = list(output) if is_tuple else [output]
        record = grad_mode.is_grad_enabled() and any(t._requires_grad for t in tensor_args)
        _check_to_save(ctx)
        non_diff = {id(t) for t in _checked(ctx, "_non_differentiable", "mark_non_differentiable only accepts "
                                            "variable arguments, but got ")}
        dirty = _bump_dirty(ctx)
        returned_as_is = [None] * len(outputs)
        for i, out in enumerate(outputs):
            if isinstance(out, Tensor) and id(out) not in dirty and any(out is a for a in tensor_args):
                # Returning an input as-is: PyTorch hands back a view so the input keeps its history.
                outputs[i] = view = _make(out._data)
                view._version_counter = out._version_counter
                returned_as_is[i] = out
                if id(out) in non_diff:
                    non_diff.add(id(view))
        if record:
            from ..ops.base import _edges
            _edges(ctx, tensor_args)
            ctx.num_outputs = len(outputs)
            ctx._output_meta = [(o._data.shape, o._data.dtype) if isinstance(o, Tensor) else ((), np.float32)
                                for o in outputs]
            for nr, out in enumerate(outputs):
                if isinstance(out, Tensor) and id(out) not in non_diff and out._data.dtype.kind == "f":
                    if id(out) in dirty:
                        _rebase_dirty(out, ctx, nr, tensor_args, len(outputs))
                    else:
                        out._grad_fn, out._output_nr, out._requires_grad = ctx, nr, True
        returned = {id(o) for o in outputs}
        if any(key not in returned for key in dirty):
            raise RuntimeError(DIRTY_NOT_RETURNED)
        if ctx._to_save and record:
            ctx._vars = {"tensors": [SavedTensor(t, is_output=t._grad_fn is ctx) if isinstance(t, Tensor) else t
                                      for t in ctx._to_save]}
        if fw_on:
            function_jvp.process(cls, ctx, args, outputs, returned_as_is, non_diff, dirty)
        return tuple(outputs) if is_tuple else outputs[0]


def _bind_defaults(forward, args, kwargs):
    """With ``setup_context``, ``inputs`` holds every argument of ``forward``, defaults included."""
    try:
        bound = inspect.signature(forward).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return args, kwargs
    bound.apply_defaults()
    return bound.args, bound.kwargs


def _checked(ctx, attr, message):
    values = getattr(ctx, attr, ())
    for v in values:
        if not isinstance(v, Tensor):
            raise RuntimeError(message)
    return values


def _check_to_save(ctx):
    for i, t in enumerate(ctx._to_save):
        if t is not None and not isinstance(t, Tensor):
            raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                            f"{type(t).__name__}")


def _bump_dirty(ctx):
    """``mark_dirty``: each tensor's version goes up by one (its in-place write); returns them by id."""
    dirty = {}
    for t in getattr(ctx, "dirty_tensors", ()):
        if not isinstance(t, Tensor):
            raise RuntimeError("mark_dirty can only accept variables, but argument ")
        dirty[id(t)] = t
        bump_version(t)
    return dirty


def _rebase_dirty(t, ctx, nr, tensor_args, num_outputs):
    """A tensor ``forward`` modified in place becomes output ``nr`` of ``ctx``, as an in-place op does."""
    if t._grad_fn is None and t._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
    if not any(t is a for a in tensor_args):
        warnings.warn(DIRTY_NOT_INPUT, UserWarning, stacklevel=4)
    is_view = t._base is not None and "_view_fn" in t.__dict__
    if is_view and num_outputs > 1:
        raise RuntimeError(DIRTY_VIEW_MULTI)
    from ..ops import inplace
    base_old = None
    if is_view:
        if t._base._requires_grad and t._base._grad_fn is None:
            raise RuntimeError(inplace.VIEW_OF_LEAF_MESSAGE)
        base_old = inplace._snapshot(t._base)
    t._grad = None
    t._grad_fn, t._output_nr, t._requires_grad = ctx, nr, True
    inplace.rebase_history(t, base_old)


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


class Error(Node):
    """PyTorch's ``DelayedError`` node: differentiating through it raises its message."""

    def _apply(self, grads):
        raise RuntimeError(self.msg)


def once_differentiable(fn):
    """Marks a ``backward`` as not differentiable again: it runs with grad mode off, and when its
    result should require grad (``create_graph``), differentiating that result raises an error."""
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with grad_mode.no_grad():
            outputs = fn(ctx, *args)
        if not grad_mode.is_grad_enabled():
            return outputs
        if not any(isinstance(a, Tensor) and a._requires_grad for a in args):
            return outputs
        from ..ops.base import _edges
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        inputs = [o.detach().requires_grad_() if isinstance(o, Tensor) else o for o in outputs]
        node = Error()
        node.msg = "trying to differentiate twice a function that was marked with @once_differentiable"
        node.num_outputs = len(inputs)
        _edges(node, inputs)
        results = []
        for nr, t in enumerate(inputs):
            if isinstance(t, Tensor):
                alias = _make(t._data)
                alias._version_counter = t._version_counter
                alias._grad_fn, alias._output_nr, alias._requires_grad = node, nr, True
                t = alias
            results.append(t)
        return results[0] if len(results) == 1 else tuple(results)
    return wrapper
