"""The pre-0.4 ``Variable`` API, which old course code still uses."""
import warnings

from .._tensor import Tensor

VOLATILE_WARNING = "volatile was removed and now has no effect. Use `with torch.no_grad():` instead."


class _VariableMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(t, requires_grad=False)``: a leaf sharing ``t``'s storage, as PyTorch returns.

    Variables and Tensors merged in PyTorch 0.4; this is kept so legacy snippets run unchanged.
    Like PyTorch, it never carries ``t``'s history: the result is always a leaf. ``volatile=True``
    only warns, as in PyTorch since 0.4 (use ``torch.no_grad()``).
    """

    def __new__(cls, data, requires_grad=False, volatile=False):
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if volatile:
            warnings.warn(VOLATILE_WARNING, UserWarning, stacklevel=2)
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        out = data.detach()
        out._detached_from = None
        out.requires_grad_(requires_grad)
        return out


def _get_volatile(self):
    warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning, stacklevel=2)
    return False


def _set_volatile(self, value):
    warnings.warn(VOLATILE_WARNING, UserWarning, stacklevel=2)


# Every tensor still answers ``.volatile`` (always False), as PyTorch's do; it lives here, with the
# rest of the legacy API, rather than among the live methods in tensor_methods.py.
Tensor.volatile = property(_get_volatile, _set_volatile)
