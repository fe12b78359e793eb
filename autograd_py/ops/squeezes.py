"""squeeze and unsqueeze: views that drop or add size-1 dims, with PyTorch's backward nodes
(SqueezeBackward0/1/4 by how the dims were given) and unsqueeze's strides (split from ``shape``,
which re-exports them)."""
from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim, torch_strides
from .base import _make, batch_ndim, grad_on, np, record
from .shape import _view_chain, view_jvp


class SqueezeBackward0(Node):
    jvp = view_jvp
    fw_view = True
    keeps = ("self_sym_sizes",)

    def backward(self, grad):
        # FunctionsManual's unsqueeze_to: unsqueeze back each removed size-1 dim (a no-op squeeze
        # passes grad through), in the grad's own batched dims
        shape, dim = self.shape, self.dim
        dims = range(len(shape)) if dim is None else {_wrap_dim(d, len(shape)) for d in
                                                      ((dim,) if isinstance(dim, int) else dim)}
        nb = batch_ndim[0]
        for i in sorted(dims):
            if i < len(shape) and shape[i] == 1:  # a 0-dim input's dim 0 has no size
                grad = unsqueeze(grad, nb + i)
        return grad


class SqueezeBackward1(SqueezeBackward0):
    keeps = ("dim",)


class SqueezeBackward4(SqueezeBackward0):
    keeps = ("dim",)


@numpy_names
def squeeze(input, dim=None):
    shape = input._data.shape
    if dim is None:
        new, cls = tuple(s for s in shape if s != 1), SqueezeBackward0
    else:
        dims = (dim,) if isinstance(dim, int) else tuple(dim)
        dims = {_wrap_dim(d, len(shape)) for d in dims}
        new = tuple(s for i, s in enumerate(shape) if not (i in dims and s == 1))
        cls = SqueezeBackward1 if isinstance(dim, int) else SqueezeBackward4
    out = _view_chain(_make(input._data.reshape(new)), input,
                      lambda x: squeeze(x, dim), lambda a: a.reshape(new))
    if grad_on(input):
        node = cls()
        node.shape, node.dim = shape, dim
        record(out, node, (input,))
    return out


class UnsqueezeBackward0(Node):
    jvp = view_jvp
    fw_view = True
    keeps = ("dim",)

    def backward(self, grad):
        return squeeze(grad, self.axis)


@numpy_names
def unsqueeze(input, dim):
    d = _wrap_dim(dim, input._data.ndim + 1)
    out = _view_chain(_make(_unsqueezed(input._data, d)), input,
                      lambda x: unsqueeze(x, d), lambda a: _unsqueezed(a, d))
    if grad_on(input):
        node = UnsqueezeBackward0()
        node.dim, node.axis = dim, d - input._data.ndim - 1
        record(out, node, (input,))
    return out


def _unsqueezed(a, d):
    """``a`` with a new size-1 dim ``d``, strided as PyTorch's unsqueeze: the size times the stride of
    the dim it goes before (0 before an empty dim), 1 at the end; NumPy picks otherwise there."""
    out = np.expand_dims(a, d)
    if a.size:
        want = a.strides[d] * a.shape[d] if d < a.ndim else a.itemsize
        if out.strides[d] != want:
            out = np.lib.stride_tricks.as_strided(a, out.shape, out.strides[:d] + (want,) + out.strides[d + 1:])
        return out
    base = torch_strides(a)
    strides = base[:d] + ((base[d] * a.shape[d] if d < a.ndim else 1),) + base[d:]
    return np.lib.stride_tricks.as_strided(a, out.shape, tuple(s * a.itemsize for s in strides))
