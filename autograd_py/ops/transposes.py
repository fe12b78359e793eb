"""Transposes and permutations: transpose/swapaxes, t, permute, movedim and the T/mT/mH/H
properties, each a view with its own backward node, as in PyTorch (split from ``shape``, which
re-exports them)."""
from ..node import Node
from .._tensor import _wrap_dim
from .._warn import warn_once
from .base import _make, _stale_first, grad_on, np, record
from .shape import _sizes, _view_chain, view_jvp


class TransposeBackward0(Node):
    jvp = view_jvp
    fw_view = True
    keeps = ("dim0", "dim1")

    def backward(self, grad):
        return transpose(grad, *self.axes)  # negative dims: batch dims stay in front


class TBackward0(Node):
    jvp = view_jvp
    fw_view = True
    def backward(self, grad):
        return t(grad) if grad._data.ndim <= 2 else transpose(grad, -2, -1)


class PermuteBackward0(Node):
    jvp = view_jvp
    fw_view = True
    keeps = ("dims",)

    def backward(self, grad):
        nb = grad._data.ndim - len(self.order)
        return permute(grad, tuple(range(nb)) + tuple(nb + int(d) for d in np.argsort(self.order)))


def transpose(input, dim0, dim1):
    nd = input._data.ndim
    d0, d1 = _wrap_dim(dim0, nd), _wrap_dim(dim1, nd)
    np_swap = (lambda a: np.swapaxes(a, d0, d1)) if nd else (lambda a: a.view())  # 0-dim: dims 0 and -1 wrap to 0
    out = _view_chain(_make(np_swap(input._data)), input, lambda x: transpose(x, d0, d1), np_swap)
    if grad_on(input):
        node = TransposeBackward0()
        node.dim0, node.dim1, node.axes = dim0, dim1, (d0 - nd, d1 - nd)
        record(out, node, (input,))
    return out


swapaxes = swapdims = transpose


def t(input):
    if input.__class__ is np.ndarray:
        return input.T  # a formula running on NumPy data (numpy_backward)
    nd = input._data.ndim
    if nd > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {nd}D")
    out = _view_chain(_make(input._data.T), input, t, np.transpose)
    if grad_on(input):
        record(out, TBackward0(), (input,))
    return out


def permute(input, *dims):
    if not dims:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    nd = input._data.ndim
    given = _sizes(dims)
    try:
        if len(given) != nd:
            raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match "
                               "the length of the desired ordering of dimensions i.e. input.dim() = "
                               f"{nd} is not equal to len(dims) = {len(given)}")
        dims = tuple(_wrap_dim(d, nd) for d in given)
        if len(set(dims)) != nd:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
    except (RuntimeError, IndexError):
        _stale_first(input)  # PyTorch reads the input's grad_fn before the kernel's checks
        raise
    out = _view_chain(_make(np.transpose(input._data, dims)), input,
                      lambda x: permute(x, dims), lambda a: np.transpose(a, dims))
    if grad_on(input):
        node = PermuteBackward0()
        node.dims, node.order = tuple(given), dims
        record(out, node, (input,))
    return out


_TRIGGERED = " (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:{}.)"


def T(input):
    nd = input._data.ndim
    if nd == 0:
        warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."
                  + _TRIGGERED.format(4321))
    elif nd != 2:
        warn_once("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated "
                  "and it will throw an error in a future release. Consider `x.mT` to transpose batches of "
                  "matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a "
                  "tensor." + _TRIGGERED.format(4314))
    return permute(input, tuple(range(nd))[::-1])


def _matrix_transpose(input, name):
    """``mT``/``mH``/``H`` (real tensors: the adjoint is the transpose); a 0-dim tensor is itself."""
    nd = input._data.ndim
    if nd == 0:
        warn_once(f"Tensor.{name} is deprecated on 0-D tensors. "
                  + ("This function is the identity in these cases." if name == "mT" else "Consider using x.conj().")
                  + _TRIGGERED.format({"mT": 4373, "mH": 4382, "H": 4335}[name]), stacklevel=4)
        return input
    if name == "H" and nd != 2:
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {nd}-D tensor."
                           + (" For batches of matrices, consider using tensor.mH" if nd > 2 else ""))
    if nd < 2:
        raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of matrices. Got {nd}-D tensor.")
    return transpose(input, -2, -1)


def mT(input):
    return _matrix_transpose(input, "mT")


def mH(input):
    return _matrix_transpose(input, "mH")


def H(input):
    return _matrix_transpose(input, "H")


def movedim(input, source, destination):
    """``input`` with the dims at ``source`` moved to ``destination``, the others kept in order:
    a ``permute`` (its grad_fn is PermuteBackward0, as PyTorch's)."""
    nd = input.dim()
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({src} dims) should contain the "
                           f"same number of dims as destination ({dst} dims)")
    src = [_wrap_dim(d, nd) for d in src]
    dst = [_wrap_dim(d, nd) for d in dst]
    for name, dims, given in (("source", src, source), ("destination", dst, destination)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(given) if not isinstance(given, int) else [given]})")
    order = [None] * nd
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(nd) if d not in src)
    order = [next(rest) if o is None else o for o in order]
    return input.permute(*order) if nd else input.permute(())


moveaxis = movedim
