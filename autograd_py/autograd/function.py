"""``torch.autograd.Function``: user-defined ops with their own forward and backward."""
import functools
import warnings

import numpy as np

from .. import grad_mode
from ..node import FREED_MESSAGE, Node, SavedTensor
from .._tensor import Tensor, _make


class FunctionCtx:
    """The ``ctx`` passed to ``forward``/``backward``; it is the op's node in the graph."""

    def save_for_backward(self, *tensors):
        """Saves tensors for backward; they are version-checked and freed after backward."""
        self._to_save = tensors

    def save_for_forward(self, *tensors):
        self._to_save_forward = tensors

    def mark_dirty(self, *args):
        self._dirty = args

    def mark_non_differentiable(self, *args):
        self._non_differentiable = args

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


class BackwardCFunction(FunctionCtx, Node):
    """The node of one ``Function.apply`` call; its class is named ``<Function>Backward``."""

    materialize_grads = True
    supports_batched = False  # user code expects one gradient at a time
    _to_save = ()

    def name(self):
        return type(self).__name__

    @property
    def saved_tensors(self):
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        if self._saved is None:
            return ()
        return tuple(s.unpack(self) if isinstance(s, SavedTensor) else s for s in self._saved["tensors"])

    saved_variables = saved_tensors

    def apply(self, grads):
        if self.materialize_grads:
            grads = [g if g is not None else _make(np.zeros(shape, dtype)) for g, (shape, dtype)
                     in zip(grads, self._output_meta)]
        result = self._forward_cls.backward(self, *grads)
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
        cls._backward_cls = backward_cls
        super().__init__(name, bases, attrs)


class Function(metaclass=FunctionMeta):
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
    def setup_context(ctx, inputs, output):
        raise NotImplementedError

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = cls._backward_cls()
        tensor_args = [a for a in args if isinstance(a, Tensor)]
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
        ctx._arg_is_tensor = tuple(isinstance(a, Tensor) for a in args)
        uses_setup = cls.setup_context is not Function.setup_context
        with grad_mode.no_grad():
            output = cls.forward(*args, **kwargs) if uses_setup else cls.forward(ctx, *args, **kwargs)
        if uses_setup:
            cls.setup_context(ctx, args, output)
        is_tuple = isinstance(output, tuple)
        outputs = list(output) if is_tuple else [output]
        record = grad_mode.is_grad_enabled() and any(t._requires_grad for t in tensor_args)
        non_diff = {id(t) for t in getattr(ctx, "_non_differentiable", ())}
        for i, out in enumerate(outputs):
            if isinstance(out, Tensor) and any(out is a for a in tensor_args):
                # Returning an input as-is: PyTorch hands back a view so the input keeps its history.
                outputs[i] = view = _make(out._data)
                view._version_counter = out._version_counter
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
                    out._grad_fn, out._output_nr, out._requires_grad = ctx, nr, True
        if ctx._to_save:
            ctx._saved = {"tensors": [SavedTensor(t, is_output=t._grad_fn is ctx) if isinstance(t, Tensor) else t
                                      for t in ctx._to_save]}
        return tuple(outputs) if is_tuple else outputs[0]


class InplaceFunction(Function):
    def __init__(self, inplace=False):
        self.inplace = inplace


def once_differentiable(fn):
    """Marks a ``backward`` as not differentiable again: it runs with grad mode off."""
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with grad_mode.no_grad():
            return fn(ctx, *args)
    return wrapper
