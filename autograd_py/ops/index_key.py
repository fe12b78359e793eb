"""Reading a Python index key the way PyTorch does, with its checks and messages.

A key is split into basic items, applied as views (ints select, slices slice, ``None`` and bools
unsqueeze), and index arrays, applied afterwards to what the views left. PyTorch checks in this
order: too many indices, then each basic item, then the index tensors' dtypes, the masks'
shapes, whether the index tensors broadcast, and last the index values.
"""
import warnings

import numpy as np

from .._tensor import Tensor

_INDEX_DTYPES = (np.dtype(np.int64), np.dtype(np.int32), np.dtype(np.uint8), np.dtype(np.bool_))
MASK_DTYPES = (np.dtype(np.uint8), np.dtype(np.bool_))

TUPLE_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in "
    "pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as tensor "
    "index, x[torch.tensor(seq)], which will result either in an error or a different result (Triggered "
    "internally at /__w/pytorch/pytorch/torch/csrc/autograd/python_variable_indexing.cpp:349.)")
UINT8_WARNING = (
    "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead. (Triggered "
    "internally at /__w/pytorch/pytorch/aten/src/ATen/native/IndexingUtils.h:37.)")


def items(key):
    """The key as a tuple of ints, bools, slices, None, Ellipsis and index arrays.

    A list is one index tensor, unless it holds a sequence, tensor, slice, None or Ellipsis: then
    (NumPy's old rule, which PyTorch keeps with a warning) it is a tuple of items.
    """
    if isinstance(key, list) and len(key) < 32 and any(
            isinstance(k, (Tensor, list, tuple, slice)) or k is None or k is Ellipsis for k in key):
        warnings.warn(TUPLE_WARNING, UserWarning, stacklevel=3)
        key = tuple(key)
    elif not isinstance(key, tuple):
        key = (key,)
    return tuple(_item(k) for k in key)


def _item(k):
    if isinstance(k, Tensor):
        data = k._data
        if data.ndim == 0 and data.dtype.kind in "biu":
            # A 0-dim integer tensor selects; a 0-dim bool (or byte) one acts like a Python bool.
            return bool(data) if data.dtype in MASK_DTYPES else int(data)
        return data
    if isinstance(k, (bool, np.bool_)):
        return bool(k)
    if isinstance(k, (int, np.integer)):
        return int(k)
    if isinstance(k, (list, tuple, range, np.ndarray)):
        # PyTorch's indexing tensors from data (any sequence: d2l's y_hat[range(len(y_hat)), y]):
        # bool or byte lists stay masks, the rest are long.
        data = np.asarray(k)
        return data if data.dtype in MASK_DTYPES else data.astype(np.int64)
    if k is None or k is Ellipsis or isinstance(k, slice):
        return k
    raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                     f"valid indices (got {type(k).__name__})")


def _width(k):
    """How many dims of the indexed tensor an item consumes."""
    if k is None or k is Ellipsis or k.__class__ is bool:
        return 0
    if isinstance(k, np.ndarray) and k.dtype in MASK_DTYPES:
        return k.ndim
    return 1


def split(key, ndim):
    """Splits items into the basic part (ints, slices, None: views, in order) and the index arrays.

    Returns:
        (basic items, list of (dim, array)): basic items are None, slices and ``(int, position in
        the key)`` (PyTorch's messages name the position); each array indexes the basic result from
        ``dim`` on.
    """
    specified = sum(_width(k) for k in key)
    if specified > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    basic, placed, dim = [], [], 0
    for pos, k in enumerate(key):
        if k.__class__ is bool:
            # A bool adds a dim of size 1 and keeps it (True) or empties it (False).
            basic.append(None)
            placed.append((dim, np.zeros(1 if k else 0, np.int64)))
            dim += 1
        elif isinstance(k, np.ndarray):
            width = _width(k)
            basic.extend([slice(None)] * width)
            placed.append((dim, k))
            dim += width
        elif k is Ellipsis:
            span = ndim - specified
            basic.extend([slice(None)] * span)
            dim += span
            specified = ndim  # a second Ellipsis spans nothing
        elif k.__class__ is int:
            basic.append((k, pos))
        else:
            basic.append(k)
            dim += 1
    return basic, placed


def advanced(shape, placed):
    """The NumPy key for the index arrays ``placed`` on a tensor of ``shape``, after PyTorch's checks."""
    key, expanded = advanced_key(shape, placed, 4)
    check_values(shape, expanded)
    return key


def advanced_key(shape, placed, stacklevel=3):
    """``advanced`` without its last checks (do the index arrays broadcast, are their values in
    bounds): NumPy's indexing raises IndexError exactly then, so a reader can index first and
    call :func:`check_values` for PyTorch's message only when it does.

    Returns:
        (key, expanded): the NumPy key, and the ``(dim, array)`` pairs ``check_values`` takes;
        ``stacklevel`` is the uint8 warning's, from here.
    """
    for _, a in placed:
        if a.dtype not in _INDEX_DTYPES:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    expanded = []
    for dim, a in placed:
        if a.dtype in MASK_DTYPES:
            if a.dtype != np.bool_:
                warnings.warn(UINT8_WARNING, UserWarning, stacklevel=stacklevel)
            for j in range(a.ndim):
                if a.shape[j] != shape[dim + j]:
                    raise IndexError(f"The shape of the mask {list(a.shape)} at index {j} does not match the "
                                     f"shape of the indexed tensor {list(shape)} at index {dim + j}")
            expanded.extend((dim + j, nz) for j, nz in enumerate(np.nonzero(a)))
        else:
            expanded.append((dim, a))
    key = [slice(None)] * (max(d for d, _ in expanded) + 1)
    for dim, a in expanded:
        key[dim] = a
    return tuple(key), expanded


def check_values(shape, expanded):
    """PyTorch's last checks of index arrays: they broadcast together, and their values are in bounds."""
    try:
        common = np.broadcast_shapes(*(a.shape for _, a in expanded))
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join(str(list(a.shape)) for _, a in expanded)) from None
    _check_bounds(shape, expanded, common)


def _check_bounds(shape, expanded, common):
    bad = np.stack([(a < -shape[d]) | (a >= shape[d]) for d, a in
                    ((d, np.broadcast_to(a, common)) for d, a in expanded)]) if expanded else None
    if bad is None or not bad.any():
        return
    # PyTorch's kernel walks the elements, checking each index tensor in turn.
    flat = bad.reshape(len(expanded), -1)
    pos = int(np.argmax(flat.any(axis=0)))
    i = int(np.argmax(flat[:, pos]))
    dim, a = expanded[i]
    value = int(np.broadcast_to(a, common).reshape(-1)[pos])
    raise IndexError(f"index {value} is out of bounds for dimension {i} with size {shape[dim]}")
