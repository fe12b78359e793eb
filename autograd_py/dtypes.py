"""PyTorch's dtype objects and type promotion, on top of NumPy dtypes."""
import builtins

import numpy as np


class dtype:
    """A tensor element type; prints as ``torch.float32`` like PyTorch."""

    __slots__ = ("name", "np", "is_floating_point", "is_signed", "itemsize", "legacy_name")

    def __init__(self, name, np_dtype, legacy_name):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.is_floating_point = self.np.kind == "f"
        self.is_signed = self.np.kind in "fi"
        self.itemsize = self.np.itemsize
        self.legacy_name = legacy_name

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):
        return (_by_name, (self.name,))


float16 = half = dtype("float16", np.float16, "HalfTensor")
float32 = float = dtype("float32", np.float32, "FloatTensor")
float64 = double = dtype("float64", np.float64, "DoubleTensor")
uint8 = dtype("uint8", np.uint8, "ByteTensor")
int8 = dtype("int8", np.int8, "CharTensor")
int16 = short = dtype("int16", np.int16, "ShortTensor")
int32 = int = dtype("int32", np.int32, "IntTensor")
int64 = long = dtype("int64", np.int64, "LongTensor")
bool = dtype("bool", np.bool_, "BoolTensor")

ALL = (float16, float32, float64, uint8, int8, int16, int32, int64, bool)
_FROM_NP = {d.np: d for d in ALL}
_BY_NAME = {d.name: d for d in ALL}


def _by_name(name):
    return _BY_NAME[name]


_default_float = float32


def get_default_dtype():
    """Returns the default floating point dtype (``torch.float32`` unless changed)."""
    return _default_float


def set_default_dtype(d):
    """Sets the default floating point dtype. Only float32 and float64 are accepted, as in PyTorch."""
    global _default_float
    if d not in (float32, float64):
        raise TypeError("only floating-point types are supported as the default type")
    _default_float = d


def from_numpy_dtype(np_dtype):
    """Maps a NumPy dtype to ours; raises TypeError for types PyTorch has no equivalent for."""
    try:
        return _FROM_NP[np_dtype]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).name}. The only supported types are: "
            "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool."
        ) from None


def to_numpy_dtype(d):
    """Accepts our dtype, a NumPy dtype or a Python type and returns the NumPy dtype."""
    if isinstance(d, dtype):
        return d.np
    if d is builtins.float:
        return _default_float.np
    if d is builtins.int:
        return int64.np
    if d is builtins.bool:
        return bool.np
    return from_numpy_dtype(np.dtype(d)).np


# Categories for promotion: a higher category from a lower-priority operand still wins,
# which is how PyTorch lets `int_tensor * 2.5` become float32 and `float32 * 2.0` stay float32.
_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2}


def category(np_dtype):
    return _CATEGORY[np_dtype.kind]


def scalar_category(value):
    if isinstance(value, builtins.float):
        return 2
    if isinstance(value, builtins.bool):
        return 0
    return 1
