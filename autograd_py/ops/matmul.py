"""``matmul``: composed from mm/mv/dot/bmm (``linalg.py``) exactly as PyTorch composes it, so its
``grad_fn`` chain (e.g. ``SqueezeBackward4 -> MmBackward0``) reads the same; apart because its
dispatch, folding and batch broadcasting are a topic of their own.
"""
from .base import Tensor, _make, grad_on, np
from .linalg import bmm, dot, mm, mv
from .small_products import batched_product, product, vector_product
from .shape import _unsafe_view, expand, reshape, squeeze, t, transpose, unsqueeze


def _numpy_matmul(a, b):
    """``a @ b`` on arrays, with mm's and mv's float32 order (``small_products``) where they apply."""
    if a.ndim == 2:
        if b.ndim == 2:
            return product(a, b)
        if b.ndim == 1:
            return vector_product(a, b)
    elif a.ndim == 1 and b.ndim == 2 and a.shape[0] == b.shape[0]:
        return product(a[None], b)[0]  # PyTorch's unsqueeze(0).mm(other)
    return batched_product(a, b)


def matmul(input, other):
    if input.__class__ is np.ndarray:
        return _numpy_matmul(input, other)  # a formula running on NumPy data (numpy_backward)
    if not isinstance(other, Tensor):
        raise TypeError(f"matmul(): argument 'other' (position 2) must be Tensor, not {type(other).__name__}")
    da, db = input._data.ndim, other._data.ndim
    if not grad_on(input, other) and da and db and input._data.dtype == other._data.dtype and (
            max(da, db) < 3 or min(da, db) >= 3):
        # No graph to record (e.g. inside a backward pass): one NumPy call, no view bookkeeping
        # (not where PyTorch may fold a batch into one mm, whose rows it adds otherwise).
        try:
            out = _make(_numpy_matmul(input._data, other._data))
            if da == 1 and db == 2:
                out._version_counter[0] = 1  # PyTorch squeezes mm's result in place
            return out
        except ValueError:
            pass  # fall through, for PyTorch's error message
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return dot(input, other)
    if da == 2 and db == 1:
        return mv(input, other)
    if da == 1 and db == 2:
        # PyTorch squeezes mm's result in place: a version bump and SqueezeBackward4, not a view.
        from .inplace import view_
        return view_(mm(unsqueeze(input, 0), other), squeeze, 0)
    if da == 2 and db == 2:
        return mm(input, other)
    if _should_fold(input, other):
        return _matmul_folded(input, other)
    return _matmul_bmm(input, other)


def _should_fold(a, b):
    """PyTorch's should_fold: a >=3-D operand times a 1-D/2-D one runs as one mm/mv on the big operand
    folded to rows, when the small one requires grad or the fold needs no copy."""
    big = a if a._data.ndim >= b._data.ndim else b
    small = b if big is a else a
    if big._data.ndim < 3 or small._data.ndim > 2:
        return False
    if small._requires_grad:
        return True  # keeps the small operand's gradient a plain mm, at the price of a copy here
    if a._data.ndim == 2:
        return False  # 2-D @ >=3-D: the folded result would need a transposed copy
    data = big._data if big is a else np.swapaxes(big._data, -1, -2)
    strides = [st // data.itemsize for st in data.strides]
    return data.size == 0 or all(strides[i] == strides[i + 1] * data.shape[i + 1] for i in range(data.ndim - 2))


def _matmul_folded(input, other):
    flip = other._data.ndim > input._data.ndim  # fold the right operand through transposes
    t1 = transpose(other, -1, -2) if flip else input
    t2 = (t(input) if input._data.ndim == 2 else input) if flip else other
    out_shape = t1._data.shape[:-1]
    folded = reshape(t1, (int(np.prod(out_shape)), t1._data.shape[-1]))
    if t2._data.ndim == 1:
        return _unsafe_view(mv(folded, t2), out_shape)
    out = _unsafe_view(mm(folded, t2), out_shape + t2._data.shape[1:])
    if flip:
        from .shape import contiguous
        return contiguous(transpose(out, -1, -2))
    return out


def _matmul_bmm(input, other):
    """The general case: both operands expanded to the broadcast batch, folded to 3-D, one bmm."""
    from .base import check_broadcast
    sa, sb = input._data.shape, other._data.shape
    da, db = len(sa), len(sb)
    n, m1 = (sa[-2] if da > 1 else 1), sa[-1]
    m2, p = (sb[-2] if db > 1 else sb[0]), (sb[-1] if db > 1 else 1)
    batch1, batch2 = sa[:max(da - 2, 0)], sb[:max(db - 2, 0)]
    if da == 3 and db == 3 and batch1[0] != batch2[0]:
        # A batch of one that requires grad is squeezed rather than expanded (a smaller gradient).
        if batch1[0] == 1 and input._requires_grad:
            return matmul(squeeze(input, 0), other)
        if batch2[0] == 1 and other._requires_grad:
            return matmul(input, squeeze(other, 0))
    check_broadcast(batch1, batch2)
    batch = tuple(np.broadcast_shapes(batch1, batch2))
    size = int(np.prod(batch))
    a = reshape(expand(input, batch + (n, m1)), (size, n, m1))
    if db == 1:
        b = unsqueeze(reshape(expand(other, batch + (m2,)), (size, m2)), 2)
        return _unsafe_view(squeeze(bmm(a, b), -1), batch + ((n,) if da > 1 else ()))
    b = reshape(expand(other, batch + (m2, p)), (size, m2, p))
    return _unsafe_view(bmm(a, b), batch + ((n,) if da > 1 else ()) + (p,))
