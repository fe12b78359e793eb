"""Batching rules for the matrix products: vectors become matrices, batch dims line up, and the
result is squeezed back; ``mm``/``mv``/``bmm``/``dot`` check the logical shapes first."""
import numpy as np

from . import dispatch  # a cycle: dispatch imports the rules; its functions are read at call time
from .batched import is_batched_at, physical, wrap
from .rules import _get, _pad, logical_rank


def matmul(level, call, args, kwargs):
    a, b = args[0], args[1]
    ra, rb = logical_rank(a, level), logical_rank(b, level)
    if ra == 0 or rb == 0:
        from .dispatch import original
        original("matmul")(a if ra else a._value if is_batched_at(a, level) else a,
                           b if rb else b._value if is_batched_at(b, level) else b)  # PyTorch's 0-dim error
    pa, pb = physical(a, level), physical(b, level)
    direct = _direct(a, b, pa, pb, ra, rb, level)
    if direct is not None:
        return wrap(direct, level)
    if ra == 1:
        pa = pa.unsqueeze(-2)
    if rb == 1:
        pb = pb.unsqueeze(-1)
    rank = max(ra, 2, rb)
    if is_batched_at(a, level):
        pa = _pad(pa, rank - max(ra, 2))
    if is_batched_at(b, level):
        pb = _pad(pb, rank - max(rb, 2))
    from .dispatch import dispatched
    out = dispatched("matmul")(pa, pb)
    if rb == 1:
        out = out.squeeze(-1)
    if ra == 1:
        out = out.squeeze(-1 if rb == 1 else -2)
    return wrap(out, level)


def _direct(a, b, pa, pb, ra, rb, level):
    """The product as one op on the physical values, without padding dims or a broadcast batch to
    fold, as functorch's dot/mv/mm batch rules: a batched operand against an unbatched vector or
    matrix is one matmul with the batch as rows (or, on the right, as columns), and two batched
    vectors or matrices are one bmm. None when the general path is needed."""
    dispatched = dispatch.dispatched
    ba, bb = is_batched_at(a, level), is_batched_at(b, level)
    if ba and not bb and rb <= 2:  # B...OI, I(J) -> B...O(J)
        return dispatched("matmul")(pa, b)
    if bb and not ba and ra <= 2:
        if rb > 1:
            return dispatched("matmul")(a, pb)
        if a.shape[-1] == pb.shape[-1] and a.dtype == pb.dtype:
            # BI, I(O) -> B(O): the batch as rows, one mm or mv with no view of the batched operand
            return dispatched("matmul")(pb, a.transpose(0, 1) if ra == 2 else a)
        out = dispatched("matmul")(a, pb.transpose(0, 1))  # functorch's (O)I, IB -> (O)B gives the error
        return out if ra == 1 else out.transpose(0, 1)
    if ba and bb and ra == rb == 1 and pa.shape == pb.shape and pa.dtype == pb.dtype and pa.dtype.is_floating_point:
        # a dot product per example: an elementwise product summed (two nodes, where the bmm of a
        # row by a column takes four views around it, each with its backward)
        return dispatched("sum")(dispatched("mul")(pa, pb), -1)
    if ba and bb and ra <= 2 and rb <= 2:  # BOI, BIJ -> BOJ, vectors as one-row/one-column matrices
        out = dispatched("bmm")(pa if ra == 2 else pa.unsqueeze(1), pb if rb == 2 else pb.unsqueeze(2))
        if rb == 1:
            out = out.squeeze(-1)
        return out.squeeze(1) if ra == 1 else out
    return None


def as_matmul(level, call, args, kwargs):
    """mm, mv, bmm, dot: checked on the logical shapes, then computed as matmul."""
    from .dispatch import original
    shapes = [np.empty(tuple(x.shape)) for x in args[:2]]
    from .._tensor import _make
    original(call.__name__)(*[_make(s) for s in shapes])  # PyTorch's shape errors, from the logical shapes
    return matmul(level, call, args[:2], {})


def outer(level, call, args, kwargs):
    a, b = args[0], args[1]
    return a.unsqueeze(-1) * b.unsqueeze(-2)


def linear(level, call, args, kwargs):
    x, weight = args[0], args[1]
    bias = _get(list(args), kwargs, 2, "bias")
    out = x.matmul(weight.transpose(-1, -2)) if weight.dim() == 2 else x.matmul(weight)
    return out + bias if bias is not None else out


def addmm(level, call, args, kwargs):
    bias, m1, m2 = args[0], args[1], args[2]
    beta, alpha = kwargs.get("beta", 1), kwargs.get("alpha", 1)
    prod = m1.matmul(m2)
    prod = prod if alpha == 1 else prod * alpha
    return prod + (bias if beta == 1 else bias * beta)
