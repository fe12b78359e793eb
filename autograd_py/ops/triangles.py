"""``tril``/``triu`` (and their in-place forms) and ``meshgrid``.

``tril``/``triu`` keep one triangle of the last two dims and zero the rest; they are linear, so the
gradient is the same triangle of the incoming gradient (``TrilBackward0``/``TriuBackward0``).
``meshgrid`` is made of views and expands, as PyTorch's is, so its outputs show ``ExpandBackward0``.
"""
from .._warn import warn_once
from ..node import Node
from . import inplace
from .base import Tensor, _make, grad_on, np, record
from .shape import expand, view

_MESHGRID_WARNING = ("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument. "
                     "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4215.)")


def _triangle(data, diagonal, upper):
    rows, cols = data.shape[-2:]
    keep = ~np.tri(rows, cols, diagonal - 1, dtype=bool) if upper else np.tri(rows, cols, diagonal, dtype=bool)
    return np.where(keep, data, np.zeros((), data.dtype))


class TrilBackward0(Node):
    keeps = ("diagonal",)

    def backward(self, grad):
        return tril(grad, self.diagonal)

    def jvp(self, tangents, inputs, result):
        return tril(tangents[0], self.diagonal)


class TriuBackward0(Node):
    keeps = ("diagonal",)

    def backward(self, grad):
        return triu(grad, self.diagonal)

    def jvp(self, tangents, inputs, result):
        return triu(tangents[0], self.diagonal)


def _apply(input, diagonal, upper):
    name = "triu" if upper else "tril"
    if input._data.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    out = _make(_triangle(input._data, diagonal, upper))
    if grad_on(input):
        node = TriuBackward0() if upper else TrilBackward0()
        node.diagonal = diagonal
        record(out, node, (input,))
    return out


def tril(input, diagonal=0):
    """The lower triangle of the last two dims (on and below the ``diagonal``-th diagonal); the rest zero.

    Args:
        input (Tensor): at least 2-D.
        diagonal (int, optional): 0 is the main diagonal, positive ones lie above it. Defaults to 0.

    Returns:
        Tensor: ``input``'s shape and dtype, ``grad_fn=<TrilBackward0>``.

    Example::

        >>> torch.tril(torch.ones(3, 3))
        tensor([[1., 0., 0.],
                [1., 1., 0.],
                [1., 1., 1.]])
    """
    return _apply(input, diagonal, False)


def triu(input, diagonal=0):
    """The upper triangle of the last two dims (on and above the ``diagonal``-th diagonal); the rest zero.

    Args:
        input (Tensor): at least 2-D.
        diagonal (int, optional): 0 is the main diagonal, positive ones lie above it. Defaults to 0.

    Returns:
        Tensor: ``input``'s shape and dtype, ``grad_fn=<TriuBackward0>``.

    Example::

        >>> torch.ones(2, 3).triu(1)
        tensor([[0., 1., 1.],
                [0., 0., 1.]])
    """
    return _apply(input, diagonal, True)


def tril_(input, diagonal=0):
    """In-place :func:`tril`."""
    if input._data.ndim < 2:
        raise RuntimeError("tril: input tensor must have at least 2 dimensions")
    return inplace.apply(input, lambda old: tril(old, diagonal))


def triu_(input, diagonal=0):
    """In-place :func:`triu`."""
    if input._data.ndim < 2:
        raise RuntimeError("triu: input tensor must have at least 2 dimensions")
    return inplace.apply(input, lambda old: triu(old, diagonal))


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 0-D or 1-D tensors: output ``i`` repeats ``tensors[i]`` along every
    other dim. ``indexing='ij'`` gives shape ``(len(t0), len(t1), ...)``; ``'xy'`` swaps the first
    two dims (Cartesian, as NumPy's default). Without ``indexing`` it is ``'ij'``, with PyTorch's warning.

    Args:
        *tensors (Tensor or list of Tensor): 0-D or 1-D tensors of one dtype.
        indexing (str, optional): ``'ij'`` or ``'xy'``.

    Returns:
        tuple of Tensor: expanded views (``grad_fn=<ExpandBackward0>``).

    Example::

        >>> xs, ys = torch.meshgrid(torch.tensor([1, 2, 3]), torch.tensor([4, 5]), indexing='ij')
        >>> xs
        tensor([[1, 1],
                [2, 2],
                [3, 3]])
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warn_once(_MESHGRID_WARNING, stacklevel=3)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TypeError(f"meshgrid(): argument 'tensors' must be tuple of Tensors, but found element of type "
                            f"{type(t).__name__}")
        if t._data.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
        if t.dtype != tensors[0].dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    order = list(tensors)
    swap = indexing == "xy" and len(order) >= 2
    if swap:  # 'xy' is 'ij' of the first two swapped, outputs swapped back
        order[0], order[1] = order[1], order[0]
    shape = [t._data.size for t in order]
    grids = []
    for i, t in enumerate(order):
        view_shape = [1] * len(order)
        view_shape[i] = -1
        grids.append(expand(view(t, view_shape), shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def _indices(row, col, offset, dtype, lower):
    from .. import dtypes
    for name, value in (("row", row), ("col", col)):
        if value < 0:
            raise RuntimeError(f"{name} must be non-negative, got{value}")
    rows, cols = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    np_dtype = dtypes.to_numpy_dtype(dtype if dtype is not None else dtypes.int64)
    return _make(np.stack([rows, cols]).astype(np_dtype).reshape(2, -1))


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (row, column) indices of the lower triangle of a ``row x col`` matrix, as a ``2 x N`` tensor
    in row-major order (``offset`` as ``tril``'s ``diagonal``).

    Example::

        >>> torch.tril_indices(3, 3)
        tensor([[0, 1, 1, 2, 2, 2],
                [0, 0, 1, 0, 1, 2]])
    """
    return _indices(row, col, offset, dtype, True)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (row, column) indices of the upper triangle of a ``row x col`` matrix (see :func:`tril_indices`)."""
    return _indices(row, col, offset, dtype, False)
