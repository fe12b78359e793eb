"""addmv: ``beta * input + alpha * (mat @ vec)`` as one node (AddmvBackward0), as addmm for matrices."""
from ..node import Node
from .base import _make, grad_on, np, record
from .linalg import _short, _times, mv
from .shape import expand


class AddmvBackward0(Node):
    saves = ("mat", "vec")
    keeps = ("alpha", "beta")

    def backward(self, grad):
        # self: maybe_multiply(grad, beta); mat: maybe_multiply(grad.ger(vec), alpha);
        # vec: maybe_multiply(mat.t().mv(grad), alpha)
        from .linalg import outer
        from .shape import t
        gs = _times(grad, self.beta) if self._next_functions[0][0] is not None else None
        gm = _times(outer(grad, self.saved("vec")), self.alpha) if self._next_functions[1][0] is not None else None
        gv = _times(mv(t(self.saved("mat")), grad), self.alpha) if self._next_functions[2][0] is not None else None
        return gs, gm, gv

    def jvp(self, tangents, inputs, result):
        # maybe_multiply(self_t, beta) + maybe_multiply(mat_t.mv(vec_p), alpha) + maybe_multiply(mat_p.mv(vec_t), alpha)
        from ..forward_mode import formula_tangents
        (t0, t1, t2), (_, mat, vec) = formula_tangents(tangents, inputs, result), inputs
        out = None
        for part in (None if t0 is None else _times(t0, self.beta), None if t1 is None else _times(mv(t1, vec), self.alpha),
                     None if t2 is None else _times(mv(mat, t2), self.alpha)):
            if part is not None:
                out = part if out is None else out + part
        return out


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)`` for a matrix ``mat`` and a vector ``vec``; ``beta=0``
    ignores ``input`` (NaNs included).

    Example::

        >>> torch.addmv(torch.tensor([1., 2.]), torch.ones(2, 3), torch.ones(3), beta=2)
        tensor([5., 7.])
    """
    if mat._data.ndim != 2 or vec._data.ndim != 1 or input._data.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input._data.ndim}, {mat._data.ndim}, "
                           f"{vec._data.ndim}")
    n, k = mat._data.shape
    if k != vec._data.shape[0] or input._data.ndim and input._data.shape[0] not in (1, n):
        if not input._data.ndim:  # PyTorch's message reads the input's size 0 first
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise RuntimeError(f"size mismatch, got input ({input._data.shape[0]}), mat ({n}x{k}), vec ({vec._data.shape[0]})")
    if not input._data.dtype == mat._data.dtype == vec._data.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_short(input)}, {_short(mat)}, "
                           f"and {_short(vec)}")
    prod = mv(mat.detach(), vec.detach())._data
    dt = prod.dtype
    p = prod if alpha == 1 else prod * dt.type(alpha)
    bias = expand(input.detach(), prod.shape)._data
    out = _make(np.asarray(p + (dt.type(0) if beta == 0 else bias if beta == 1 else bias * dt.type(beta)), dtype=dt))
    if grad_on(input, mat, vec):
        node = AddmvBackward0()
        node.alpha, node.beta = alpha, beta
        node.save(mat=mat, vec=vec)
        record(out, node, (input, mat, vec))
    return out
