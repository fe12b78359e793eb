"""``torch.save`` and ``torch.load``: pickle with each storage written once, so tensors that share
memory (views, a ``state_dict`` and its module) still share it after loading.

The file is a plain pickle, not PyTorch's zip archive: files move between autograd_py sessions,
not to real PyTorch. ``torch.load`` defaults to ``weights_only=True`` as PyTorch 2.6+ does, and
refuses other globals with PyTorch's message.
"""
import collections
import contextlib
import io
import os
import pickle
import sys
import types

import numpy as np

from . import dtypes
from ._tensor import Size, Tensor, _make
from .devices import device

_FORMAT = "autograd_py.serialization/1"


class _Storage:
    """The memory behind one or more tensors, pickled once (by persistent id)."""

    __slots__ = ("key", "array")

    def __init__(self, key, array):
        self.key, self.array = key, array


def _root(array):
    root = array
    while isinstance(root.base, np.ndarray):
        root = root.base
    return root


def _address(array):
    return array.__array_interface__["data"][0]


def _placement(array):
    """(root, byte offset, byte strides) when ``array`` is a view into a contiguous root array."""
    root = _root(array)
    if root is array or not root.flags.c_contiguous:
        return None
    offset = _address(array) - _address(root)
    reach = [(n - 1) * s for n, s in zip(array.shape, array.strides)]
    low = offset + sum(r for r in reach if r < 0)
    high = offset + sum(r for r in reach if r > 0) + array.itemsize
    if low < 0 or high > root.nbytes:
        return None
    return root, offset, array.strides


class _Pickler(pickle.Pickler):
    def __init__(self, file):
        super().__init__(file, protocol=pickle.DEFAULT_PROTOCOL)
        self._storages = {}

    def _storage(self, array):
        placed = _placement(array) if array.size else None
        if placed is None:
            root, offset, strides = np.ascontiguousarray(array), 0, None
        else:
            root, offset, strides = placed
        entry = self._storages.get(id(root))
        if entry is None:
            entry = self._storages[id(root)] = _Storage(len(self._storages), root)
        return entry, offset, strides

    def reducer_override(self, obj):
        if isinstance(obj, (type, types.FunctionType)) and not _importable(obj):
            # A class or function defined in a playground namespace: a script's __main__ to the
            # learner, but not the interpreter's, where pickle would look it up and fail.
            return _session_global, (obj.__module__, obj.__qualname__)
        if not isinstance(obj, Tensor):
            return NotImplemented
        data = obj._data
        storage, offset, strides = self._storage(data)
        kind = "parameter" if getattr(obj, "_is_param", False) else "tensor"
        return _rebuild_tensor, (kind, storage, data.dtype.str, data.shape, strides, offset, obj._requires_grad)

    def persistent_id(self, obj):
        if isinstance(obj, _Storage):
            return ("storage", obj.key, obj.array.dtype.str, obj.array.tobytes())
        return None


def _importable(obj):
    found = sys.modules.get(obj.__module__)
    for part in obj.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is obj


_load_namespace = [None]  # the globals of torch.load's caller, while it runs


def _session_global(module, qualname):
    """A class or function saved from a namespace that is not an importable module, found again in
    the namespace that calls ``torch.load`` (the playground's ``__main__``)."""
    namespace = _load_namespace[0] or {}
    head, _, rest = qualname.partition(".")
    found = namespace.get(head) if namespace.get("__name__") == module else None
    for part in rest.split(".") if rest else ():
        found = getattr(found, part, None)
    if found is None:
        raise AttributeError(f"Can't get attribute '{qualname}' on <module '{module}'>")
    return found


def _rebuild_tensor(kind, storage, dtype, shape, strides, offset, requires_grad):
    array = np.ndarray(shape, np.dtype(dtype), buffer=storage, offset=offset, strides=strides)
    if kind == "parameter":
        from .nn.parameter import Parameter
        return Parameter(_make(array), requires_grad)
    return _make(array, requires_grad)


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True):
    """Saves an object (tensors, a ``state_dict``, a module, plain Python values) to a file.

    Args:
        obj (object): what to save.
        f (str or os.PathLike or file-like): a path, or an object with ``write``.

    Example::

        >>> buffer = io.BytesIO()
        >>> torch.save(model.state_dict(), buffer)
    """
    with _open(f, "wb") as file:
        file.write(_FORMAT.encode() + b"\n")
        _Pickler(file).dump(obj)


@contextlib.contextmanager
def _open(f, mode):
    if isinstance(f, (str, os.PathLike)):
        with open(f, mode) as file:
            yield file
    else:
        yield f


# ---------------------------------------------------------------------------------------------- load
_SAFE = {("collections", "OrderedDict"): collections.OrderedDict, ("builtins", "set"): set,
         ("builtins", "frozenset"): frozenset, ("builtins", "complex"): complex, ("builtins", "slice"): slice,
         ("builtins", "bytearray"): bytearray, ("autograd_py.serialization", "_rebuild_tensor"): _rebuild_tensor,
         ("autograd_py._tensor", "Size"): Size, ("autograd_py.dtypes", "_by_name"): dtypes._by_name,
         ("autograd_py.devices", "device"): device, ("torch", "device"): device}
_user_safe = {}


def _torch_name(module, name):
    # The learner imported torch: name classes as PyTorch would (torch.nn.modules.linear.Linear).
    if module == "autograd_py" or module.startswith("autograd_py."):
        module = "torch" + module[len("autograd_py"):]
    return f"{module}.{name}"


def _weights_only_error(detail):
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo those "
        "steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we changed the default "
        "value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with "
        "`weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only "
        "if you got the file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please "
        "check the recommended steps in the following error message.\n\tWeightsUnpickler error: " + detail + "\n\n"
        "Check the documentation of torch.load to learn more about types accepted by default with weights_only "
        "https://pytorch.org/docs/stable/generated/torch.load.html.")


def _unsupported_global(full):
    return _weights_only_error(
        f"Unsupported global: GLOBAL {full} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{full}])` or the `torch.serialization.safe_globals"
        f"([{full}])` context manager to allowlist this global if you trust this class/function.")


def _refuse_session_global(module, qualname):
    for obj in _user_safe.values():
        if (obj.__module__, obj.__qualname__) == (module, qualname):
            return obj
    raise _unsupported_global(_torch_name(module, qualname))


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, weights_only):
        super().__init__(file)
        self._weights_only = weights_only
        self._buffers = {}

    def find_class(self, module, name):
        if not self._weights_only:
            return super().find_class(module, name)
        if (module, name) == ("autograd_py.serialization", "_session_global"):
            return _refuse_session_global
        found = _SAFE.get((module, name)) or _user_safe.get((module, name))
        if found is None and (module, name) == ("autograd_py.nn.parameter", "_rebuild_parameter"):
            from .nn.parameter import _rebuild_parameter
            found = _rebuild_parameter
        if found is None:
            raise _unsupported_global(_torch_name(module, name))
        return found

    def persistent_load(self, pid):
        _, key, dtype, raw = pid
        if key not in self._buffers:
            self._buffers[key] = bytearray(raw)  # writable, shared by every tensor of this storage
        return self._buffers[key]


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Loads an object saved with :func:`save`.

    Args:
        f (str or os.PathLike or file-like): a path, or an object with ``read``.
        map_location (optional): accepted for compatibility; everything loads on the CPU.
        weights_only (bool, optional): only tensors, dtypes, containers and primitive values may be
            loaded (no arbitrary classes). Defaults to ``True``, as in PyTorch 2.6 and later.

    Example::

        >>> buffer.seek(0)
        >>> model.load_state_dict(torch.load(buffer))
        <All keys matched successfully>
    """
    if weights_only is None:
        weights_only = True
    with _open(f, "rb") as file:
        if file.readline().rstrip(b"\n") != _FORMAT.encode():
            raise RuntimeError("torch.load here reads only files written by this torch.save (autograd_py), "
                               "not PyTorch's own checkpoints")
        _load_namespace[0] = sys._getframe(1).f_globals
        try:
            return _Unpickler(io.BytesIO(file.read()), weights_only).load()
        finally:
            _load_namespace[0] = None


def add_safe_globals(safe_globals):
    """Allows these classes or functions in ``torch.load(..., weights_only=True)``."""
    for obj in safe_globals:
        _user_safe[(obj.__module__, obj.__qualname__)] = obj


def get_safe_globals():
    return list(_user_safe.values())


def clear_safe_globals():
    _user_safe.clear()


@contextlib.contextmanager
def safe_globals(safe_globals):
    """Allows these globals in ``torch.load(..., weights_only=True)`` within the block."""
    saved = dict(_user_safe)
    add_safe_globals(safe_globals)
    try:
        yield
    finally:
        _user_safe.clear()
        _user_safe.update(saved)
