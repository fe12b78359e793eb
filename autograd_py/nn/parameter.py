"""``torch.nn.Parameter``: a leaf tensor that a Module registers as one of its parameters."""
from .._tensor import Tensor

FLOAT_ONLY = "Only Tensors of floating point and complex dtype can require gradients"


class Parameter(Tensor):
    """A Tensor that is a module parameter: assigning it to a Module attribute registers it.

    It shares ``data``'s storage (and version counter) but never its history: a Parameter is
    always a leaf. Operations on it return plain Tensors, as in PyTorch.

    Args:
        data (Tensor, optional): the values. Defaults to an empty tensor.
        requires_grad (bool, optional): whether the parameter requires gradient. Defaults to ``True``.

    Example::

        >>> p = nn.Parameter(torch.tensor([1., 2.]))
        >>> p
        Parameter containing:
        tensor([1., 2.], requires_grad=True)
    """

    _is_param = True

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            from ..creation import empty
            data = empty(0)
        src = data.detach()
        param = object.__new__(cls)
        param._data = src._data
        param._version_counter = src._version_counter
        if requires_grad:
            if src._data.dtype.kind not in "fc":
                raise RuntimeError(FLOAT_ONLY)
            Tensor._set_requires_grad(param, True)  # refused for an inference tensor outside inference mode
        return param

    def __init__(self, data=None, requires_grad=True):
        # Everything happened in __new__; Tensor.__init__ would rebuild the data from the arguments.
        pass

    def __deepcopy__(self, memo):
        # PyTorch copies the values and requires_grad only: the copy has no .grad.
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(Tensor.clone(self.data), self._requires_grad)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, proto):
        return (_rebuild_parameter, (self._data.copy(), self._requires_grad))


def _rebuild_parameter(data, requires_grad):
    from .._tensor import _make
    return Parameter(_make(data), requires_grad)
