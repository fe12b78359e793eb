"""Tensor factories: ``tensor``, ``zeros``, ``arange`` and the legacy constructors (random ones: :mod:`.random`)."""
import numbers
import warnings

import numpy as np

from . import dtypes, grad_mode
from ._tensor import Size, Tensor, _make
from .devices import as_device
from .ranges import arange, linspace, logspace  # noqa: F401  (torch.arange and friends live here too)
from .signatures import invalid_combination

_MISSING = object()


def _np_dtype(dtype):
    return None if dtype is None else dtypes.to_numpy_dtype(dtype)


def _finish(data, requires_grad):
    t = _make(data)
    if requires_grad:
        if data.dtype.kind not in "fc":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
        if grad_mode.transform_depth[0]:
            from .func._levels import own_new_leaf
            own_new_leaf(t)  # made inside a torch.func transform: that transform's leaf
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


def tensor(*args, data=_MISSING, dtype=None, device=None, requires_grad=False, pin_memory=False):
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
    if len(args) > 1 or (args and data is not _MISSING):
        raise TypeError(f"tensor() takes 1 positional argument but {len(args) + (data is not _MISSING)} were given")
    if args:
        data = args[0]
    elif data is _MISSING:
        raise TypeError('tensor() missing 1 required positional arguments: "data"')
    _check_options("tensor", dtype, requires_grad, device)
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
    as_device(device)
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


_SIZE_TYPES = (tuple, list, Size)


def _is_int(value):
    if isinstance(value, Tensor):
        return value._data.ndim == 0 and value._data.dtype.kind in "iu"
    return isinstance(value, (numbers.Integral, np.integer))


def _size(size, name="zeros"):
    """The shape given as ``f(2, 3)``, ``f((2, 3))`` or ``f([2, 3])``, with PyTorch's TypeErrors."""
    if len(size) == 1 and isinstance(size[0], _SIZE_TYPES):
        size = size[0]
    elif len(size) == 1 and (not _is_int(size[0]) or isinstance(size[0], bool)):
        raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not {type(size[0]).__name__}")
    elif any(isinstance(s, _SIZE_TYPES) for s in size):
        raise TypeError(f"{name}() takes 1 positional argument but {len(size)} were given")
    for pos, s in enumerate(size, start=1):
        if not _is_int(s):
            raise TypeError(f"{name}(): argument 'size' failed to unpack the object at pos {pos} with error "
                            f"\"type must be tuple of ints,but got {type(s).__name__}\"")
    return tuple(int(s) for s in size)


def _shape(name, args, size):
    """``size`` from the positional arguments or the ``size=`` keyword (not both)."""
    if size is _MISSING:
        if not args:
            raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
        return _size(args, name)
    if args:
        raise TypeError(f"{name}() got multiple values for argument 'size'")
    if not isinstance(size, _SIZE_TYPES):
        raise TypeError(f"{name}(): argument 'size' must be tuple of ints, not {type(size).__name__}")
    return _size((size,), name)


def _check_options(name, dtype, requires_grad, device):
    if dtype is not None and not isinstance(dtype, dtypes.dtype):
        raise TypeError(f"{name}(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")
    if requires_grad is not None and not isinstance(requires_grad, bool):
        raise TypeError(f"{name}(): argument 'requires_grad' must be bool, not {type(requires_grad).__name__}")
    as_device(device)


def _filled(size, value, dtype, requires_grad, name="zeros"):
    if dtype is not None:
        dt = _np_dtype(dtype)
    elif isinstance(value, bool):
        dt = np.bool_
    elif isinstance(value, int):
        dt = np.int64
    else:
        dt = dtypes.get_default_dtype().np
    shape = _size(size, name)
    if any(s < 0 for s in shape):
        if name == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        bad = next(s for s in shape if s < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {list(shape)}")
    return _finish(np.full(shape, value, dtype=dt), requires_grad)


def _constant(name, fill):
    def factory(*args, size=_MISSING, out=None, dtype=None, layout=None, device=None, pin_memory=False,
                requires_grad=False, memory_format=None):
        _check_options(name, dtype, requires_grad, device)
        return _filled((_shape(name, args, size),), fill, dtype, requires_grad, name)
    factory.__name__ = factory.__qualname__ = name
    return factory


zeros = _constant("zeros", 0.0)
zeros.__doc__ = """A tensor of zeros: ``zeros(2, 3)``, ``zeros((2, 3))`` or ``zeros(size=(2, 3))``.

    Args:
        size (int...): the shape, as separate ints or one sequence.
        dtype (torch.dtype, optional): defaults to the default float dtype.
        device (torch.device, optional): must be the CPU.
        requires_grad (bool, optional): record operations on the result. Defaults to ``False``.

    Example::

        >>> torch.zeros(size=(2, 3))
        tensor([[0., 0., 0.],
                [0., 0., 0.]])
    """
ones = _constant("ones", 1.0)
ones.__doc__ = "A tensor of ones; takes the same arguments as :func:`zeros`."
empty = _constant("empty", 0.0)
empty.__doc__ = "Uninitialised in PyTorch; zeros here, so results are reproducible. Arguments as :func:`zeros`."


def full(*args, size=_MISSING, fill_value=_MISSING, out=None, dtype=None, layout=None, device=None,
         pin_memory=False, requires_grad=False):
    """A tensor of shape ``size`` filled with ``fill_value``, whose type gives the default dtype.

    Example::

        >>> torch.full((2,), 3.)
        tensor([3., 3.])
    """
    if len(args) > 2:
        raise TypeError(f"full() takes 2 positional arguments but {len(args)} were given")
    if args and size is not _MISSING:
        raise TypeError("full() got multiple values for argument 'size'")
    if len(args) == 2 and fill_value is not _MISSING:
        raise TypeError("full() got multiple values for argument 'fill_value'")
    if args:
        size, fill_value = args[0], args[1] if len(args) > 1 else fill_value
    if size is _MISSING or fill_value is _MISSING:
        raise TypeError(f'full() missing 1 required positional arguments: "{"size" if size is _MISSING else "fill_value"}"')
    if not isinstance(size, _SIZE_TYPES):
        where = " (position 1)" if args else ""
        raise TypeError(f"full(): argument 'size'{where} must be tuple of ints, not {type(size).__name__}")
    if isinstance(fill_value, Tensor) and fill_value._data.ndim == 0:
        fill_value = fill_value.item()
    if not isinstance(fill_value, (numbers.Number, np.generic)):
        raise TypeError(f"full(): argument 'fill_value' must be Number, not {type(fill_value).__name__}")
    _check_options("full", dtype, requires_grad, device)
    return _filled((size,), fill_value, dtype, requires_grad, "full")


def _like(fn):
    def like(input, *args, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
        _check_options(fn.__name__ + "_like", dtype, requires_grad, device)
        return fn(input._data.shape, *args, dtype=dtype or input.dtype, requires_grad=requires_grad)
    like.__name__ = fn.__name__ + "_like"
    return like


zeros_like = _like(zeros)
ones_like = _like(ones)
empty_like = _like(empty)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    _check_options("full_like", dtype, requires_grad, device)
    return full(input._data.shape, fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad)


_EYE_FORMS = [f"(int n, {m}*, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
              "torch.device device = None, bool pin_memory = False, bool requires_grad = False)"
              for m in ("", "int m, ")]


def eye(*args, n=_MISSING, m=None, out=None, dtype=None, layout=None, device=None, pin_memory=False,
        requires_grad=False):
    """A 2-D tensor with ones on the diagonal: ``n`` rows and ``m`` (default ``n``) columns."""
    if args:
        if n is not _MISSING or len(args) > 2:
            raise invalid_combination("eye", args, {"n": n} if n is not _MISSING else {}, _EYE_FORMS)
        n, m = args[0], args[1] if len(args) > 1 else m
    if n is _MISSING:
        raise TypeError('eye() missing 1 required positional arguments: "n"')
    if not _is_int(n):
        raise TypeError(f"eye(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if m is not None and not _is_int(m):
        raise invalid_combination("eye", args, {}, _EYE_FORMS)
    _check_options("eye", dtype, requires_grad, device)
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is not None and m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    dt = _np_dtype(dtype) or dtypes.get_default_dtype().np
    return _finish(np.eye(int(n), None if m is None else int(m), dtype=dt), requires_grad)


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
