"""The pre-0.4 ``Variable`` API, which old course code still uses."""
from .._tensor import Tensor


class _VariableMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(t, requires_grad=False)``: a leaf sharing ``t``'s storage, as PyTorch returns.

    Variables and Tensors merged in PyTorch 0.4; this is kept so legacy snippets run unchanged.
    Like PyTorch, it never carries ``t``'s history: the result is always a leaf.
    """

    def __new__(cls, data, requires_grad=False, volatile=False):
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        out = data.detach()
        out._detached_from = None
        out.requires_grad_(requires_grad)
        return out
