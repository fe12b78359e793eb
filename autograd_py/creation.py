"""Tensor factories: ``tensor``, ``zeros``, ``arange`` and the legacy constructors (random ones: :mod:`.random`)."""
import numbers
import warnings

import numpy as np

from . import dtypes
from ._tensor import Size, Tensor, _make

def _np_dtype(dtype):
    return None if dtype is None else dtypes.to_numpy_dtype(dtype)


def _finish(data, requires_grad):
    t = _make(data)
    if requires_grad:
        if data.dtype.kind not in "fc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
    return t


def _from_python(data, float_dtype=None):
    """Infers PyTorch's dtype for nested Python data: bool, int64, or ``float_dtype`` (default: the
    default float), so that an explicit ``dtype=torch.float64`` never rounds through float32."""
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, (list, tuple)) and any(isinstance(x, Tensor) for x in data):
        data = [x._data if isinstance(x, Tensor) else _from_python(x, float_dtype) for x in data]
    arr = np.asarray(data)
    kind = arr.dtype.kind
    if kind == "b":
        return arr
    if kind in "iu":
        return arr.astype(np.int64)
    if kind == "f":
        return arr.astype(float_dtype if float_dtype is not None else dtypes.get_default_dtype().np)
    if kind == "O" or kind == "U":
        raise TypeError(f"Could not infer dtype of {type(data).__name__}")
    raise TypeError(f"can't convert {arr.dtype} to a tensor")


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """Constructs a tensor with no autograd history by copying ``data``.

    Args:
        data (array_like): a number, a (nested) list or tuple, a NumPy array or a Tensor.
        dtype (torch.dtype, optional): defaults to the type inferred from ``data``.
        requires_grad (bool, optional): record operations on the result. Defaults to ``False``.

    Example::

        >>> torch.tensor([[1., -1.], [1., -1.]])
        tensor([[ 1., -1.],
                [ 1., -1.]])
    """
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
                      "or sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
    if isinstance(data, (np.ndarray, np.generic)):
        arr = np.array(data, copy=True)
        dtypes.from_numpy_dtype(arr.dtype)
    else:
        arr = np.array(_from_python(data, None if dtype is None else _np_dtype(dtype)), copy=True)
    if dtype is not None:
        arr = arr.astype(_np_dtype(dtype))
    return _finish(arr, requires_grad)


def as_tensor(data, dtype=None, device=None):
    """Like :func:`tensor`, but shares memory with a NumPy array or Tensor of the same dtype."""
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray):
        return _make(data if dtype is None else data.astype(_np_dtype(dtype), copy=False))
    return tensor(data, dtype=dtype)


def from_numpy(ndarray):
    """A tensor sharing memory with ``ndarray`` (changes to one show in the other)."""
    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    dtypes.from_numpy_dtype(ndarray.dtype)
    return _make(ndarray)


def _size(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list, Size)):
        size = size[0]
    for s in size:
        if not isinstance(s, numbers.Integral) and not (isinstance(s, Tensor) and s._data.ndim == 0):
            raise TypeError(f"zeros(): argument 'size' (position 1) must be tuple of ints, but found element "
                            f"of type {type(s).__name__} at pos 0")
    return tuple(int(s) for s in size)


def _filled(size, value, dtype, requires_grad):
    if dtype is not None:
        dt = _np_dtype(dtype)
    elif isinstance(value, bool):
        dt = np.bool_
    elif isinstance(value, int):
        dt = np.int64
    else:
        dt = dtypes.get_default_dtype().np
    return _finish(np.full(_size(size), value, dtype=dt), requires_grad)


def zeros(*size, out=None, dtype=None, device=None, requires_grad=False):
    return _filled(size, 0.0, dtype, requires_grad)


def ones(*size, out=None, dtype=None, device=None, requires_grad=False):
    return _filled(size, 1.0, dtype, requires_grad)


def empty(*size, out=None, dtype=None, device=None, requires_grad=False, memory_format=None):
    """Uninitialised in PyTorch; zeros here, so results are reproducible."""
    return _filled(size, 0.0, dtype, requires_grad)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False):
    return _filled((size,), fill_value, dtype, requires_grad)


def _like(fn):
    def like(input, *args, dtype=None, device=None, requires_grad=False, memory_format=None):
        return fn(input._data.shape, *args, dtype=dtype or input.dtype, requires_grad=requires_grad)
    like.__name__ = fn.__name__ + "_like"
    return like


zeros_like = _like(zeros)
ones_like = _like(ones)
empty_like = _like(empty)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return full(input._data.shape, fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """Values from ``start`` to ``end`` (exclusive) by ``step``; integer arguments give int64."""
    if end is None:
        start, end = 0, start
    args = [x.item() if isinstance(x, Tensor) else x for x in (start, end, step)]
    is_float = any(isinstance(x, float) for x in args)
    dt = _np_dtype(dtype) or (dtypes.get_default_dtype().np if is_float else np.int64)
    n = max(0, int(np.ceil((args[1] - args[0]) / args[2])))
    data = (args[0] + np.arange(n, dtype=np.float64) * args[2]).astype(dt)
    return _finish(data, requires_grad)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False):
    dt = _np_dtype(dtype) or dtypes.get_default_dtype().np
    return _finish(np.linspace(start, end, steps).astype(dt), requires_grad)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False):
    dt = _np_dtype(dtype) or dtypes.get_default_dtype().np
    return _finish(np.logspace(start, end, steps, base=base).astype(dt), requires_grad)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False):
    dt = _np_dtype(dtype) or dtypes.get_default_dtype().np
    return _finish(np.eye(n, m, dtype=dt), requires_grad)


# ---------------------------------------------------------------------------- legacy constructors
def legacy_new(args, dtype):
    """``torch.Tensor(...)`` / ``torch.FloatTensor(...)``: sizes give zeros, a sequence gives data."""
    np_dt = dtypes.to_numpy_dtype(dtype)
    if not args:
        return _make(np.zeros((0,), dtype=np_dt))
    if len(args) == 1 and isinstance(args[0], Tensor):
        return _make(args[0]._data.astype(np_dt, copy=False))
    if all(isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in args):
        return _make(np.zeros(tuple(int(a) for a in args), dtype=np_dt))
    if len(args) == 1 and isinstance(args[0], Size):
        return _make(np.zeros(tuple(args[0]), dtype=np_dt))
    if len(args) == 1 and isinstance(args[0], (list, tuple, np.ndarray)):
        return _make(np.array(args[0], dtype=np_dt))
    raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")


class _LegacyTensorMeta(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls._dtype


def _legacy_type(name, dtype):
    def __new__(cls, *args):
        return legacy_new(args, dtype)
    return _LegacyTensorMeta(name, (), {"__new__": __new__, "_dtype": dtype,
                                        "__doc__": f"Legacy constructor for {dtype!r} tensors."})


FloatTensor = _legacy_type("FloatTensor", dtypes.float32)
DoubleTensor = _legacy_type("DoubleTensor", dtypes.float64)
HalfTensor = _legacy_type("HalfTensor", dtypes.float16)
LongTensor = _legacy_type("LongTensor", dtypes.int64)
IntTensor = _legacy_type("IntTensor", dtypes.int32)
ShortTensor = _legacy_type("ShortTensor", dtypes.int16)
ByteTensor = _legacy_type("ByteTensor", dtypes.uint8)
CharTensor = _legacy_type("CharTensor", dtypes.int8)
BoolTensor = _legacy_type("BoolTensor", dtypes.bool)
