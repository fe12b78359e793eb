"""Matrix and vector products (mm, addmm, dot/inner, mv, bmm, outer) and their nodes.

``matmul``, which composes them, is in ``matmul.py``; mm's and mv's backwards run it, so it is
imported back at the bottom of this module."""
import sys
from math import isfinite as _isfinite

from ..node import Node
from .base import Tensor, _make, batch_ndim, grad_on, np, record
from .shape import expand, reshape, t, transpose, unsqueeze
from .small_products import batched_product, product, vector_product


def _c_name(t):
    from .._tensor import _C_TYPE_NAMES
    return _C_TYPE_NAMES[t._data.dtype.name]


def _short(t):
    return t.dtype.legacy_name[:-6]


def _same_dtype(a, b, op):
    """PyTorch's dtype-mismatch message, which differs per product op."""
    if a._data.dtype == b._data.dtype:
        return
    if op == "mm":
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {_c_name(a)} != {_c_name(b)}")
    if op == "dot":
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_short(a)} and {_short(b)}")
    if op == "mv":
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_short(b)}, {_short(a)}, "
                           f"and {_short(b)}")
    raise RuntimeError(f"expected scalar type {_short(a)} but found {_short(b)}")


def _strides(x):
    st, n = x.strides, x.itemsize
    if len(st) == 2:
        return (st[0] // n, st[1] // n)
    return tuple(s // n for s in st)


# the attribute names mm's and addmm's nodes keep their operands' sizes and strides under
_KEYS = {(a, b): (f"{a}_sym_sizes", f"{b}_sym_sizes", f"{a}_sym_strides", f"{b}_sym_strides")
         for a, b in (("self", "mat2"), ("mat1", "mat2"))}


def _product_node(cls, out, a, b, first="self", second="mat2"):
    """Records a matrix product; each operand is saved only when the other one needs its gradient,
    and (for mm and addmm) its sizes always, its strides with it, as PyTorch does."""
    node = cls()
    saved = {}
    if a._requires_grad:
        saved[second] = b
    if b._requires_grad:
        saved[first] = a
    node.save(**saved)
    if cls.keeps:
        sizes_a, sizes_b, strides_a, strides_b = _KEYS[first, second]
        attrs = node.__dict__
        attrs[sizes_a], attrs[sizes_b] = a._data.shape, b._data.shape
        attrs[strides_a] = _strides(a._data) if a._requires_grad else ()
        attrs[strides_b] = _strides(b._data) if b._requires_grad else ()
    return node


def _bilinear_jvp(op, tangents, inputs, dense=True):
    """``op(a_t, b_p) + op(a_p, b_t)``: a product's tangent. PyTorch's matrix products compute both
    terms, a missing tangent as real zeros (so ``0 @ inf`` is nan there and the tangent requires grad
    with either primal); ``dense=False`` (dot) skips the missing term."""
    (ta, tb), (a, b) = tangents, inputs
    if dense and (ta is None) != (tb is None):
        from ..forward_mode import zeros_tangent
        ta, tb = (zeros_tangent(a), tb) if ta is None else (ta, zeros_tangent(b))
    out = op(ta, b) if ta is not None else None
    if tb is not None:
        part = op(a, tb)
        out = part if out is None else out + part
    return out


class MmBackward0(Node):
    numpy_formula = True
    saves = ("mat2", "self")
    keeps = ("mat2_sym_sizes", "mat2_sym_strides", "self_sym_sizes", "self_sym_strides")

    def jvp(self, tangents, inputs, result):
        return _bilinear_jvp(mm, tangents, inputs)

    def backward(self, grad):
        ga = gb = None
        if self._next_functions[0][0] is not None:
            ga = _mat1_grad(grad, self.saved("mat2"), self.__dict__["self_sym_sizes"], self.self_sym_strides)
        if self._next_functions[1][0] is not None:
            gb = _mat2_grad(grad, self.saved("self"), self.mat2_sym_sizes, self.mat2_sym_strides)
        return ga, gb


def _column_major(sizes, strides):
    return not batch_ndim[0] and strides[0] == 1 and strides[1] == sizes[0]


def _mat1_grad(grad, mat2, sizes, strides):
    """PyTorch's mm_mat1_backward: a column-major ``mat1`` gets its gradient as a transposed product."""
    if _column_major(sizes, strides):
        _needs_tensors(grad)  # that gradient is a view (t), which only the Tensor path makes
        return t(mm(mat2, t(grad)))
    return matmul(grad, t(mat2))  # matmul is mm for 2-D operands, and also takes a batched gradient


def _mat2_grad(grad, mat1, sizes, strides):
    """PyTorch's mm_mat2_backward, likewise for a column-major ``mat2``."""
    if _column_major(sizes, strides):
        _needs_tensors(grad)
        return t(mm(t(grad), mat1))
    return matmul(t(mat1), grad)


def _needs_tensors(grad):
    if grad.__class__ is np.ndarray:
        from ..numpy_backward import NeedsTensors
        raise NeedsTensors


def mm(input, mat2):
    if input.__class__ is np.ndarray:
        return product(input, mat2)  # a formula running on NumPy data (numpy_backward)
    if input._data.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2._data.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    (n, k), (k2, m) = input._data.shape, mat2._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    _same_dtype(input, mat2, "mm")
    out = _make(product(input._data, mat2._data))
    if grad_on(input, mat2):
        record(out, _product_node(MmBackward0, out, input, mat2), (input, mat2))
    return out


class AddmmBackward0(Node):
    saves = ("mat1", "mat2")
    keeps = ("alpha", "beta", "mat1_sym_sizes", "mat1_sym_strides", "mat2_sym_sizes", "mat2_sym_strides")
    alpha = beta = 1

    def jvp(self, tangents, inputs, result):
        # beta * self_t + alpha * mat1_t.mm(mat2_p) + alpha * mat1_p.mm(mat2_t), added in that order;
        # a missing tangent's term is a zero that still reads its primal (the tangent requires grad
        # when mat2 does)
        (t0, t1, t2), (_, a, b) = tangents, inputs
        out = None if t0 is None else _times(t0, self.beta)
        for part in (None if t1 is None else mm(t1, b), None if t2 is None else mm(a, t2)):
            if part is not None:
                part = _times(part, self.alpha)
                out = part if out is None else out + part
        if t1 is None or t2 is None:  # PyTorch adds that zero term: -0.0 in self_t comes out 0.0
            from ..forward_mode import linked, zeros_tangent
            zero = zeros_tangent(result)
            out = linked(zero if out is None else out + zero, (b if t1 is None else None, a if t2 is None else None))
        return out

    def backward(self, grad):
        gs = _times(grad, self.beta) if self._next_functions[0][0] is not None else None
        g1 = g2 = None
        if self._next_functions[2][0] is not None:
            g2 = _times(_mat2_grad(grad, self.saved("mat1"), self.mat2_sym_sizes, self.mat2_sym_strides), self.alpha)
        if self._next_functions[1][0] is not None:
            g1 = _times(_mat1_grad(grad, self.saved("mat2"), self.mat1_sym_sizes, self.mat1_sym_strides), self.alpha)
        return gs, g1, g2


def _times(t, k):
    """derivatives.yaml's maybe_multiply: ``t * k``, or ``t`` itself for ``k == 1``."""
    if k == 1:
        return t
    from .pointwise import mul_scalar
    return mul_scalar(t, k)


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)`` as one node, which is what ``F.linear`` with a bias
    records (``beta=0`` ignores ``input``, NaNs included).

    Example::

        >>> torch.addmm(torch.ones(2), torch.eye(2), torch.tensor([[1., 2.], [3., 4.]]), beta=2)
        tensor([[3., 4.],
                [5., 6.]])
    """
    if input._data.dtype != mat2._data.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_short(input)} and {_short(mat2)}")
    if mat1._data.dtype != mat2._data.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_short(mat1)} and {_short(mat2)}")
    prod = mm(mat1.detach(), mat2.detach())
    bias = expand(input.detach(), prod._data.shape)  # PyTorch's message for a bias of the wrong size
    dt = prod._data.dtype
    p = prod._data if alpha == 1 else prod._data * dt.type(alpha)
    if beta == 0:
        out = _make(np.asarray(p + dt.type(0), dtype=dt))
    else:
        out = _make(np.asarray(p + (bias._data if beta == 1 else bias._data * dt.type(beta)), dtype=dt))
    if grad_on(input, mat1, mat2):
        node = _product_node(AddmmBackward0, out, mat1, mat2, "mat1")
        node.alpha, node.beta = alpha, beta
        record(out, node, (input, mat1, mat2))
    return out


class DotBackward0(Node):
    saves = ("self", "tensor")

    def jvp(self, tangents, inputs, result):
        return _bilinear_jvp(dot, tangents, inputs, dense=False)

    def backward(self, grad):
        if batch_ndim[0]:
            grad = unsqueeze(grad, -1)  # a batch of 0-d gradients against 1-D operands
        ga = grad * self.saved("tensor") if self._next_functions[0][0] is not None else None
        gb = grad * self.saved("self") if self._next_functions[1][0] is not None else None
        return ga, gb


def dot(input, other):
    if input._data.ndim != 1 or other._data.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input._data.ndim}D and {other._data.ndim}D tensors")
    if input._data.shape != other._data.shape:
        n, m = input._data.shape[0], other._data.shape[0]
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same "
                           f"number of elements, but got {n} and {m} elements respectively")
    _same_dtype(input, other, "dot")
    # PyTorch's dot sums from +0, so a product of -0.0 comes out 0.0 (NumPy's 1-D dot keeps the sign).
    out = _make(np.asarray(np.dot(input._data, other._data) + input._data.dtype.type(0)))
    if grad_on(input, other):
        node = DotBackward0()
        node.save(tensor=other, self=input)
        record(out, node, (input, other))
    return out


inner = dot


class MvBackward0(Node):
    numpy_formula = True
    saves = ("self", "vec")

    def jvp(self, tangents, inputs, result):
        return _bilinear_jvp(mv, tangents, inputs)

    def backward(self, grad):
        edges = self._next_functions
        if edges[0][0] is None and grad.__class__ is np.ndarray and edges[1][0] is not None:
            # a Jacobian's rows on NumPy data (numpy_backward): the vector's gradient, what mv(t(m), grad) gives
            return None, vector_product(self.saved("self").T, grad)
        ga = gb = None
        if edges[0][0] is not None:
            # derivatives.yaml's grad.ger(vec): outer reshapes grad to a column
            ga = reshape(grad, tuple(grad.shape) + (1,)) * self.saved("vec")
        if edges[1][0] is not None:
            m = self.saved("self")
            # derivatives.yaml's self.t().mv(grad); a batched grad (vectorized jacobian) goes through matmul
            if grad.ndim == 1:
                gb = mv(t(m), grad)
            else:
                gb = _diagonal_times(grad, m) if _SCALE_DIAGONALS[0] else None
                if gb is None:
                    gb = matmul(grad, m)
        return ga, gb


_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
# Pyodide's NumPy has no optimised BLAS: there a 64x64 product costs some 20x the checks below,
# where in CPython OpenBLAS makes it about half their cost
_SCALE_DIAGONALS = [sys.platform == "emscripten"]


def _diagonal_times(grad, m):
    """``matmul(grad, m)`` for a diagonal square batch of gradients (a Jacobian's identity through
    pointwise ops), as ``m``'s rows scaled, or None.

    Each sum of the product then has one term that is not an exact zero, so every summation order
    gives that term rounded once, as the scaling does, when it is not zero (the sign of a sum of
    zeros is the order's) and ``m`` is finite (``0 * inf`` elsewhere in its column would be NaN):
    a scaled matrix without zeros, NaN or infinities says both (and leaves no NaN payload to
    keep); otherwise the product runs. The product is most of a vectorized Jacobian's cost in
    Pyodide (``_SCALE_DIAGONALS``).
    """
    g, a = grad._data, m._data
    dt = g.dtype
    n = g.shape[0]
    if g.ndim != 2 or g.shape[1] != n or n < 2 or a.ndim != 2 or a.shape[0] != n or (dt is not _F64 and dt is not _F32) \
            or a.dtype is not dt or not g.flags.c_contiguous or grad.__class__ is not Tensor or m.__class__ is not Tensor \
            or grad_on(grad, m):
        return None
    # the entries off the diagonal of a C-ordered square matrix: n - 1 rows of n after the first entry
    if g.reshape(-1)[1:].reshape(n - 1, n + 1)[:, :n].any():
        return None
    out = np.multiply(g.diagonal()[:, None], a, order="C")
    if not out.all() or not _isfinite(out.sum()):
        return None
    return _make(out)


def mv(input, vec):
    if input.__class__ is np.ndarray:
        return vector_product(input, vec)  # a formula running on NumPy data (numpy_backward)
    if input._data.ndim != 2 or vec._data.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input._data.ndim}, {vec._data.ndim}")
    if input._data.shape[1] != vec._data.shape[0]:
        n, k = input._data.shape
        raise RuntimeError(f"size mismatch, got input ({n}), mat ({n}x{k}), vec ({vec._data.shape[0]})")
    _same_dtype(input, vec, "mv")
    out = _make(vector_product(input._data, vec._data))
    if grad_on(input, vec):
        node = MvBackward0()
        node.save(vec=vec, self=input)
        record(out, node, (input, vec))
    return out


class BmmBackward0(Node):
    saves = ("mat2", "self")

    def jvp(self, tangents, inputs, result):
        return _bilinear_jvp(matmul_batched, tangents, inputs)

    def backward(self, grad):
        ga = gb = None
        if self._next_functions[0][0] is not None:
            ga = matmul_batched(grad, transpose(self.saved("mat2"), -1, -2))
        if self._next_functions[1][0] is not None:
            gb = matmul_batched(transpose(self.saved("self"), -1, -2), grad)
        return ga, gb  # broadcast batch dims are summed away by the engine


def matmul_batched(input, other):
    """Batched matrix product with broadcast batch dims (what ``bmm`` and batched ``matmul`` run)."""
    out = _make(batched_product(input._data, other._data))
    if grad_on(input, other):
        record(out, _product_node(BmmBackward0, out, input, other), (input, other))
    return out


def bmm(input, mat2):
    if input._data.ndim != 3 or mat2._data.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if input._data.shape[0] != mat2._data.shape[0] or input._data.shape[2] != mat2._data.shape[1]:
        raise RuntimeError("Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{input._data.shape[0]}, {input._data.shape[2]}] but got: "
                           f"[{mat2._data.shape[0]}, {mat2._data.shape[1]}].")
    _same_dtype(input, mat2, "bmm")
    return matmul_batched(input, mat2)


def outer(input, vec2):
    return reshape(input, (-1, 1)) * vec2


ger = outer


from .matmul import matmul  # noqa: E402  (mm's and mv's backwards run it; it builds on the products above)
