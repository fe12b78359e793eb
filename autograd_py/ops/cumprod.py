"""cumprod, and the product's gradient where the input has zeros (PyTorch's prod_safe_zeros_backward),
built from it as in PyTorch so that a second derivative takes PyTorch's path."""
from .. import dtypes, grad_mode
from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim
from .base import _make, grad_on, np, record, written_in_place


class CumprodBackward0(Node):
    saves = ("self", "result")
    keeps = ("dim",)

    def jvp(self, tangents, inputs, result):
        t, x = tangents[0], inputs[0]
        if t._data.dtype != result._data.dtype:  # cumprod_jvp(...).to(dtype)
            from .pointwise import to_dtype
            t, x = to_dtype(t, result._data.dtype), to_dtype(x, result._data.dtype)
        return cumprod_jvp(t, x, result, self.axis)

    def backward(self, grad):
        x, out = self.saved("self"), self.saved("result")
        return cumprod_backward(grad, x, self.axis, out)


def scan(np_scan, data, axis):
    """``np_scan`` (``np.cumsum``/``np.cumprod``) along ``axis`` as ATen's cumulative kernels run it:
    float32 accumulated in double (CPU's ``acc_type<float>``), each partial result rounded to float32."""
    if data.dtype == np.float32:
        return np_scan(data.astype(np.float64), axis=axis).astype(np.float32)
    return np_scan(data, axis=axis)


def scan_input(input, dim, dtype):
    """The wrapped ``dim`` and the data a cumulative op (cumsum, cumprod) runs over: cast to
    ``dtype`` if given, integers and bools as int64 as PyTorch's accumulate."""
    d = _wrap_dim(dim, input._data.ndim)
    data = input._data
    if dtype is not None:
        data = data.astype(dtypes.to_numpy_dtype(dtype))
    elif data.dtype.kind in "bui":
        data = data.astype(np.int64)
    return d, data


@numpy_names
def cumprod(input, dim, dtype=None):
    """The cumulative product of ``input`` along ``dim`` (integers and bools as int64)."""
    d, data = scan_input(input, dim, dtype)
    out = _make(scan(np.cumprod, data, d).reshape(data.shape))  # NumPy makes a 0-dim input 1-dim
    if grad_on(input):
        node = CumprodBackward0()
        node.dim, node.axis = dim, d - max(input._data.ndim, 1)
        node.save(self=input)
        node.save_output(result=out)
        record(out, node, (input,))
    return out


def cumprod_jvp(t, x, result, axis):
    """PyTorch's cumprod_jvp: ``cumsum(t / x) * result``, which divides by zero from a slice's first
    zero on; there, the cumulative product of the input with that first zero replaced by its
    tangent (the product rule's one surviving term; a later zero makes it 0). The ``where`` is
    built whenever its graph could show, as PyTorch's, or when there is a zero."""
    from .reduction import cumsum
    z = cumsum(t / x, axis) * result
    zero = x._data == 0
    if not np.any(zero) and not (grad_mode.is_grad_enabled() and (t.requires_grad or x.requires_grad)):
        return z
    from .comparison import where
    counts = np.cumsum(zero, axis=axis)
    first = _make(zero & (counts == 1))
    return where(_make(counts > 0), cumprod(where(first, t, x), axis), z)


def _reversed_cumsum(w, axis):
    from .joining import flip
    from .reduction import cumsum
    return flip(cumsum(flip(w, axis), axis), axis)


def cumprod_backward(grad, x, axis, out):
    """PyTorch's cumprod_backward: sum over later j of grad[j] * y[j] / x[k] without zeros; with
    zeros, a masked O(n) formula, or (create_graph) the O(n^2) products with x[k] left out."""
    if x._data.size <= 1 or x._data.shape[axis] == 1:
        return grad
    w = out * grad
    if not np.any(x._data == 0):
        return _reversed_cumsum(w, axis) / x
    if not grad_mode.is_grad_enabled():
        return _zeros_backward_values(grad._data, x._data, axis, out._data)
    from .indexing import select, slice_dim
    from .inplace import copy_
    from .joining import cat
    from .reduction import prod, sum
    from .shape import expand
    n, dim = x._data.shape[axis], axis % x._data.ndim
    grad_input = written_in_place(_make(np.zeros(x._data.shape, grad._data.dtype)))  # at::zeros: empty().zero_()
    ones_shape = x._data.shape[:dim] + (1,) + x._data.shape[dim + 1:]
    ones = expand(_make(np.ones(1, grad._data.dtype)), ones_shape)
    for k in range(n):
        if k == 0:
            omitted = cat([ones, cumprod(slice_dim(x, dim, 1, None), dim)], dim)
        elif k == n - 1:
            omitted = prod(slice_dim(x, dim, 0, k), dim, keepdim=True)
        else:
            until_k = prod(slice_dim(x, dim, 0, k), dim, keepdim=True)
            from_k1 = cumprod(slice_dim(x, dim, k + 1, None), dim)
            omitted = cat([until_k, expand(until_k, from_k1._data.shape) * from_k1], dim)
        copy_(select(grad_input, dim, k), sum(slice_dim(grad, dim, k, None) * omitted, dim))
    return grad_input


def _zeros_backward_values(g, x, axis, y):
    """The masked O(n) branch's values: before the first zero, the reversed cumsum of grad * y over
    x; at the first zero, the products past it up to the second zero; zero after it (version 0, as
    PyTorch's result shows)."""
    xm, gm, ym = (np.moveaxis(a, axis, -1) for a in (x, g, y))
    zeros = np.cumsum(xm == 0, axis=-1)
    before = zeros == 0
    w = np.where(before, ym * gm, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        lead = np.flip(np.cumsum(np.flip(w, -1), -1), -1) / xm
    res = np.where(before, lead, 0).astype(g.dtype)
    span = zeros == 1
    first = np.argmax(span, axis=-1)[..., None]
    at_first = np.zeros_like(span)
    np.put_along_axis(at_first, first, True, axis=-1)
    at_first &= span
    inside = span & ~at_first
    tail = np.sum(np.cumprod(np.where(inside, xm, 1), -1) * np.where(span, gm, 0), -1, keepdims=True)
    prev = np.where(first == 0, 1, np.take_along_axis(ym, np.maximum(first - 1, 0), -1))
    res = np.where(at_first, tail * prev, res).astype(g.dtype)
    return _make(np.ascontiguousarray(np.moveaxis(res, -1, axis)))


def prod_safe_zeros_backward(grad, x, dim):
    """PyTorch's prod_safe_zeros_backward: grad times the exclusive cumprods from either end."""
    if not x._data.size:
        from .shape import expand
        return expand(grad, x._data.shape)
    k = x._data.shape[dim]
    if k == 1:
        return grad
    from .indexing import narrow
    from .joining import cat, flip
    ones_shape = x._data.shape[:dim] + (1,) + x._data.shape[dim + 1:]
    ones = _make(np.ones(ones_shape, grad._data.dtype))
    normal = cumprod(cat([ones, narrow(x, dim, 0, k - 1)], dim), dim)
    reverse = flip(cumprod(cat([_make(np.ones(ones_shape, grad._data.dtype)), flip(narrow(x, dim, 1, k - 1), dim)],
                               dim), dim), dim)
    return grad * (normal * reverse)
