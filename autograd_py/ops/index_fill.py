"""index_fill with a 0-dim tensor value, the op PyTorch's trace_backward writes with: its gradient
``zeros(n*m).index_fill_(0, diagonal_indices, grad).view(n, m)`` records IndexFillBackward1 and
a ViewBackward0 (what a create_graph double backward through ``trace`` shows)."""
from ..node import Node
from .base import Tensor, _make, grad_on, np, record, written_in_place


def _filled(x, dim, index, value):
    data = x._data.copy()
    np.moveaxis(data, dim, 0)[index._data] = value
    return data


class IndexFillBackward0(Node):
    keeps = ("dim", "index")

    def jvp(self, tangents, inputs, result):
        return index_fill(tangents[0], self.dim, self.index, 0)

    def backward(self, grad):
        return index_fill(grad, self.dim, self.index, 0)


class IndexFillBackward1(Node):
    keeps = ("dim", "index")

    def jvp(self, tangents, inputs, result):
        # self_t.index_fill(dim, index, value_t), a missing tangent counting as zeros
        from ..forward_mode import zeros_tangent
        st, vt = (zeros_tangent(x) if t is None else t for t, x in zip(tangents, inputs))
        return index_fill(st, self.dim, self.index, vt)

    def backward(self, grad):
        from .advanced_indexing import index_select
        needs = [fn is not None for fn, _ in self._next_functions]
        gs = index_fill(grad, self.dim, self.index, 0) if needs[0] else None
        unique = _make(np.unique(self.index._data))
        gv = index_select(grad, self.dim, unique).sum() if needs[1] else None
        return gs, gv


def index_fill(input, dim, index, value):
    """``input`` with the slices ``index`` along ``dim`` set to ``value`` (a number or 0-dim tensor)."""
    is_tensor = isinstance(value, Tensor)
    out = _make(_filled(input, dim, index, value._data if is_tensor else value))
    if grad_on(input, *((value,) if is_tensor else ())):
        node = IndexFillBackward1() if is_tensor else IndexFillBackward0()
        node.dim, node.index = dim, index
        record(out, node, (input, value) if is_tensor else (input,))
    return out


def trace_backward(grad, sizes):
    """PyTorch's trace_backward: the gradient written on the flattened diagonal, then viewed.
    Its index_fill_ with a tensor value bumps the version twice (it redispatches to the number
    overload), which the returned view shows."""
    from .inplace import apply
    from .shape import view
    n1, n2 = sizes
    flat = _make(np.zeros(n1 * n2, dtype=grad._data.dtype))
    index = _make(np.arange(0, n1 * n2, n2 + 1, dtype=np.int64))
    apply(flat, lambda old: index_fill(old, 0, index, grad), grad)
    return view(written_in_place(flat), (n1, n2))
