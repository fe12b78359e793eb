"""``ParameterList`` and ``ParameterDict``: parameters held in a list or a dict and registered on the
module (so ``parameters()``, ``state_dict()`` and optimizers see them), as PyTorch's containers do."""
import operator
from collections import OrderedDict
from collections import abc as container_abcs

from ..._tensor import Tensor
from ..parameter import Parameter
from .module import Module


def _describe(key, value, legacy=False):
    """A line of the containers' repr: ``(0): Parameter containing: [torch.float32 of size 3x4]``
    (ParameterDict's names the legacy type instead, ``torch.FloatTensor``, as PyTorch's does)."""
    if isinstance(value, Tensor):
        size = "x".join(str(n) for n in value.size())
        kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
        return f"  ({key}): {kind} containing: [{value.type() if legacy else value.dtype} of size {size}]"
    return f"  ({key}): Object of type: {type(value).__name__}"


def _as_parameter(value):
    # the constructors, item assignment, append/extend/update wrap a plain tensor as a Parameter
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


class ParameterList(Module):
    """Holds parameters in a list, registered under the names ``"0"``, ``"1"``, ...

    Args:
        values (iterable, optional): the elements to add; tensors become :class:`Parameter`.

    Example::

        >>> params = nn.ParameterList([nn.Parameter(torch.ones(2, 3)) for _ in range(2)])
        >>> params
        ParameterList(
            (0): Parameter containing: [torch.float32 of size 2x3]
            (1): Parameter containing: [torch.float32 of size 2x3]
        )
    """

    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _get_abs_string_index(self, idx):
        idx = operator.index(idx)
        if not (-len(self) <= idx < len(self)):
            raise IndexError(f"index {idx} is out of range")
        return str(idx + len(self) if idx < 0 else idx)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            out = self.__class__()
            for i in range(*idx.indices(len(self))):
                out.append(self[i])
            return out
        return getattr(self, self._get_abs_string_index(idx))

    def __setitem__(self, idx, param):
        setattr(self, self._get_abs_string_index(idx), _as_parameter(param))

    def __len__(self):
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def __dir__(self):
        return [key for key in super().__dir__() if not key.isdigit()]

    def append(self, value):
        """Appends ``value`` (a tensor becomes a :class:`Parameter`). Returns self."""
        index = len(self)
        self._size += 1
        self[index] = value
        return self

    def extend(self, values):
        """Appends each of ``values``. Returns self."""
        if not isinstance(values, container_abcs.Iterable) or isinstance(values, Tensor):
            raise TypeError("ParameterList.extend should be called with an iterable, but got " + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self):
        return "\n".join(_describe(k, p) for k, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """Holds parameters in an ordered dict, registered under their keys.

    Args:
        parameters (mapping or iterable, optional): ``{name: value}`` or ``(name, value)`` pairs; a
            plain ``dict`` is added in sorted key order (an ``OrderedDict`` in its own order), as
            PyTorch does. Tensors become :class:`Parameter`.

    Example::

        >>> pd = nn.ParameterDict({"w": torch.ones(2), "b": torch.zeros(1)})
        >>> list(pd.keys())
        ['b', 'w']
    """

    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key):
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a string (type is "
                            f"'{type(key).__name__}'). Open an issue on github if you need non-string keys.")
        return key

    def __getitem__(self, key):
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key, value):
        self._keys[key] = None
        setattr(self, self._key_to_attr(key), _as_parameter(value))

    def __delitem__(self, key):
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self):
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __reversed__(self):
        return reversed(self._keys)

    def __contains__(self, key):
        return key in self._keys

    def copy(self):
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self):
        for key in self._keys.copy():
            del self[key]

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def popitem(self):
        key, _ = self._keys.popitem()
        self._keys[key] = None
        value = self[key]
        del self[key]
        return key, value

    def get(self, key, default=None):
        return self[key] if key in self else default

    def fromkeys(self, keys, default=None):
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def update(self, parameters):
        """Adds (or overwrites) the pairs of ``parameters``."""
        if not isinstance(parameters, container_abcs.Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of key/value pairs, but got "
                            + type(parameters).__name__)
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = list(parameters.items())
        elif isinstance(parameters, container_abcs.Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = []
            for j, p in enumerate(parameters):
                if not isinstance(p, container_abcs.Iterable):
                    raise TypeError(f"ParameterDict update sequence element #{j} should be Iterable; is"
                                    + type(p).__name__)
                if len(p) != 2:
                    raise ValueError(f"ParameterDict update sequence element #{j} has length {len(p)}; 2 is required")
                pairs.append((p[0], p[1]))
        for key, value in pairs:
            self[key] = value

    def extra_repr(self):
        return "\n".join(_describe(k, p, legacy=True) for k, p in self.items())

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other):
        copy = self.copy()
        copy.update(other)
        return copy

    def __ior__(self, other):
        self.update(other)
        return self
