"""PyTorch's argument checks for ``uniform_`` and ``random_`` bounds, with its messages and warnings."""
import warnings

import numpy as np

# caffe2::TypeMeta names, which some of PyTorch's messages print instead of 'Float'/'Long'.
_C_NAMES = {np.dtype(np.float32): "float", np.dtype(np.float64): "double", np.dtype(np.float16): "c10::Half",
            np.dtype(np.int64): "long int", np.dtype(np.int32): "int", np.dtype(np.int16): "short int",
            np.dtype(np.int8): "signed char", np.dtype(np.uint8): "unsigned char", np.dtype(np.bool_): "bool"}


def c_name(np_dtype):
    return _C_NAMES[np.dtype(np_dtype)]


def check_uniform(np_dtype, low, high, type_name, num):
    """``uniform_impl_``'s checks; returns the bounds clamped to the dtype's range."""
    info = np.finfo(np_dtype)
    lo, hi = float(info.min), float(info.max)
    for value, name in ((low, "from"), (high, "to")):
        if not lo <= value <= hi:
            raise RuntimeError(f"{name} is out of bounds for {c_name(np_dtype)}")
    if low > high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={num(low)} > "
                           f"to={num(high)}")
    if high - low > hi:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{type_name}>::max(), but found "
                           f"to={num(high)} and from={num(low)} which result in to-from to exceed the limit")
    return low, high


def _digits(np_dtype):
    return np.finfo(np_dtype).nmant + 1


def update_from(low, np_dtype):
    """The smallest integer >= ``low`` that the float dtype represents (``update_from``)."""
    plus_1 = int(np.asarray(low + 1, np_dtype).astype(np.float64))
    if plus_1 < low:
        n = abs(low + 1).bit_length() - 1
        low = plus_1 + (1 << (n - _digits(np_dtype) + 1))
    return low


def update_to(high, np_dtype):
    """The exclusive bound whose predecessor the float dtype represents (``update_to``)."""
    minus_1 = int(np.asarray(high - 1, np_dtype).astype(np.float64))
    if minus_1 >= high:
        n = abs(high - 1).bit_length() - 1
        high = minus_1 - (1 << (n - _digits(np_dtype) + 1))
    return high


def check_from_to(low, high, np_dtype):
    """``random_(from, to)``'s checks (``check_from_to_in_range``); returns the updated bounds."""
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    np_dtype = np.dtype(np_dtype)
    if np_dtype.kind == "f":
        low, high = update_from(low, np_dtype), update_to(high, np_dtype)
        if low >= high:
            raise RuntimeError("random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but "
                               f"got from={low} >= to={high}")
        info, digits = np.finfo(np_dtype), _digits(np_dtype)
        limits = (float(info.min), float(info.max))
        for value, name in ((low, "from"), (high - 1, "to - 1")):
            if not limits[0] <= value <= limits[1]:
                raise RuntimeError(f"{name} is out of bounds for {c_name(np_dtype)}")
            if not -(1 << digits) <= value <= 1 << digits:
                warnings.warn(f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                              f"{c_name(np_dtype)} can support discrete uniform distribution only within this "
                              "range. This warning will become an error in version 1.7 release, please fix the "
                              "code in advance", UserWarning, stacklevel=4)
    else:
        info = (0, 1) if np_dtype.kind == "b" else np.iinfo(np_dtype)
        lo, hi = (info[0], info[1]) if np_dtype.kind == "b" else (int(info.min), int(info.max))
        for value, name in ((low, "from"), (high - 1, "to - 1")):
            if not lo <= value <= hi:
                raise RuntimeError(f"{name} is out of bounds for {c_name(np_dtype)}")
    return low, high
