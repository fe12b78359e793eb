"""One table of ops, in the style of PyTorch's OpInfo: adding an op to the tests is adding a row.

Each :class:`OpInfo` row names an op, calls it through ``T`` (the torch-like namespace: ``autograd_py``
in ``test_ops.py``, real ``torch`` in the optional parity test), and gives a NumPy reference, the
input shapes to try and the domain the inputs are drawn from. All inputs are floating tensors;
integer index tensors, masks and Python numbers are constants inside the row's ``op``.

Domains keep finite differences honest: positive inputs for ``log``/``sqrt``, values away from the
kinks of ``abs``/``relu``/``clamp``, distinct values where ``max``/``min``/``norm(inf)`` pick one.
"""
import math
from dataclasses import dataclass

import numpy as np

from conv_refs import np_adaptive_avg_pool2d, np_avg_pool2d, np_conv, np_max_pool2d

# ---------------------------------------------------------------------------- domains
# A domain is ``sample(rng, shape) -> float64 ndarray``.


def uniform(lo=-2.0, hi=2.0):
    def sample(rng, shape):
        return rng.uniform(lo, hi, size=shape)
    return sample


def away_from(*points, lo=-2.0, hi=2.0, margin=0.15):
    """Uniform on [lo, hi] but at least ``margin`` from each point (kinks, poles)."""
    def sample(rng, shape):
        x = rng.uniform(lo, hi, size=shape)
        for _ in range(100):
            bad = np.zeros(np.shape(x), dtype=bool)
            for p in points:
                bad |= np.abs(x - p) < margin
            if not bad.any():
                return x
            x = np.where(bad, rng.uniform(lo, hi, size=shape), x)
        raise AssertionError("domain too narrow")
    return sample


def distinct(lo=-2.0, hi=2.0, positive=False):
    """Distinct values at least ``(hi - lo) / (n + 1)`` apart, so arg-max/min is unique and stable;
    with ``positive``, also distinct in absolute value (for ``norm(p=inf)``)."""
    def sample(rng, shape):
        n = int(np.prod(shape, dtype=np.int64))
        grid = np.linspace(lo, hi, n + 2)[1:-1]
        if positive:
            magnitudes = rng.permutation(np.linspace(0.2, 2.0, n)).reshape(shape)
            return magnitudes * rng.choice([-1.0, 1.0], size=shape)
        return rng.permutation(grid).reshape(shape)
    return sample


def fixed(values):
    """Exactly these values (the shape in the row must match)."""
    def sample(rng, shape):
        return np.array(values, dtype=np.float64).reshape(shape)
    return sample


def with_zeros(*flat_positions, lo=-2.0, hi=2.0):
    """Uniform values away from 0, with exact zeros at the given flat positions (for ``prod``)."""
    base = away_from(0.0, lo=lo, hi=hi, margin=0.3)

    def sample(rng, shape):
        x = base(rng, shape)
        x.reshape(-1)[list(flat_positions)] = 0.0
        return x
    return sample


POSITIVE = uniform(0.3, 2.0)
NONZERO = away_from(0.0, margin=0.3)

# ---------------------------------------------------------------------------- the row type


@dataclass(frozen=True)
class OpInfo:
    """One op under test.

    Args:
        name: test id.
        op: ``op(T, *tensors)`` returning a Tensor or a tuple/list of Tensors.
        ref: ``ref(*arrays)`` with the same outputs computed by NumPy.
        shapes: one tuple of input shapes per sample; ``()`` is a 0-d tensor.
        domain: a sampler, or a tuple with one sampler per input.
        gradcheck: compare backward with finite differences (off where they are undefined, e.g. ties).
        gradgrad: also run ``gradgradcheck`` (create_graph through the backward formulas).
        grad_ref: NumPy gradient of ``sum`` of the (first) output w.r.t. each input, for rows where
            finite differences cannot tell the answer (ties in ``max``).
        result_dtype: the result's dtype name when it is not the inputs' (``to(float64)``).
    """

    name: str
    op: object
    ref: object
    shapes: tuple
    domain: object = uniform()
    gradcheck: bool = True
    gradgrad: bool = False
    grad_ref: object = None
    result_dtype: str = None

    def samples(self):
        return [(i, s) for i, s in enumerate(self.shapes)]

    def make_inputs(self, rng, shapes):
        domains = self.domain if isinstance(self.domain, tuple) else (self.domain,) * len(shapes)
        return [np.asarray(d(rng, s), dtype=np.float64) for d, s in zip(domains, shapes)]


def shape_id(shapes):
    return "x".join("(" + ",".join(str(n) for n in s) + ")" for s in shapes)


# ---------------------------------------------------------------------------- NumPy references
def np_softmax(x, dim):
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


def np_logsumexp(x, dim, keepdim=False):
    m = x.max(axis=dim, keepdims=True)
    out = np.log(np.exp(x - m).sum(axis=dim, keepdims=True)) + m
    return out if keepdim else np.squeeze(out, axis=dim)


def np_norm(x, p=2.0, dim=None, keepdim=False):
    a = np.abs(x)
    if p == math.inf:
        return a.max(axis=dim, keepdims=keepdim)
    return (a ** p).sum(axis=dim, keepdims=keepdim) ** (1.0 / p)


def np_sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def np_tie_grad(x):
    """PyTorch's full max/min backward: ties share the gradient evenly."""
    def grad(a):
        mask = a == x(a)
        return mask / mask.sum()
    return grad


# Constants used by index-taking ops (NumPy here; rows wrap them with ``T.tensor``).
GATHER_IDX_1 = np.array([[0, 2, 1, 2], [1, 1, 0, 0]])
GATHER_IDX_0 = np.array([[1, 0, 1], [0, 0, 1], [1, 1, 1]])
INDEX_ADD_IDX = np.array([2, 0, 2, 1])


def np_index_add(dim, alpha):
    def ref(x, source):
        out = x.copy()
        np.add.at(out, (slice(None),) * dim + (INDEX_ADD_IDX,), alpha * source)
        return out
    return ref
MASK = np.array([[True, False, True], [False, True, True]])
COND = np.array([[True, False, True], [False, False, True]])
FANCY = np.array([2, 0, 2])

BINARY_SHAPES = (((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 3)), ((2, 3), ()), ((), ()))
UNARY_SHAPES = (((2, 3),), ((),))

# ---------------------------------------------------------------------------- the table
OPS = [
    # --- binary arithmetic, with broadcasting and 0-d tensors
    OpInfo("add", lambda T, a, b: a + b, np.add, BINARY_SHAPES),
    OpInfo("add_alpha", lambda T, a, b: T.add(a, b, alpha=2), lambda a, b: a + 2 * b, BINARY_SHAPES[:2]),
    OpInfo("sub", lambda T, a, b: a - b, np.subtract, BINARY_SHAPES),
    OpInfo("sub_alpha", lambda T, a, b: T.sub(a, b, alpha=3), lambda a, b: a - 3 * b, BINARY_SHAPES[:2]),
    OpInfo("mul", lambda T, a, b: a * b, np.multiply, BINARY_SHAPES, gradgrad=True),
    OpInfo("div", lambda T, a, b: a / b, np.divide, BINARY_SHAPES, domain=(uniform(), NONZERO), gradgrad=True),
    OpInfo("pow_tensor", lambda T, a, b: a ** b, np.power, BINARY_SHAPES, domain=(POSITIVE, uniform()),
           gradgrad=True),
    OpInfo("maximum", lambda T, a, b: T.maximum(a, b), np.maximum, BINARY_SHAPES),
    OpInfo("minimum", lambda T, a, b: T.minimum(a, b), np.minimum, BINARY_SHAPES),
    OpInfo("remainder", lambda T, a, b: a % b, np.remainder, BINARY_SHAPES[:2],
           domain=(uniform(2.2, 2.8), uniform(1.2, 2.0))),
    OpInfo("fmod", lambda T, a, b: T.fmod(a, b), np.fmod, BINARY_SHAPES[:2], domain=(uniform(-2.8, -2.2), uniform(1.2, 2.0))),
    # fmax/fmin: inputs drawn apart (no ties) from disjoint interleaved grids, so each side wins somewhere
    OpInfo("fmax", lambda T, a, b: T.fmax(a, b), np.fmax, BINARY_SHAPES, domain=(distinct(-2.0, 1.9), distinct(-1.9, 2.0))),
    OpInfo("fmin", lambda T, a, b: a.fmin(b), np.fmin, BINARY_SHAPES[:3], domain=(distinct(-2.0, 1.9), distinct(-1.9, 2.0))),
    OpInfo("atan2", lambda T, a, b: T.atan2(a, b), np.arctan2, BINARY_SHAPES, domain=(NONZERO, NONZERO), gradgrad=True),
    # --- three inputs, one node each
    OpInfo("addcmul", lambda T, a, b, c: T.addcmul(a, b, c, value=0.5), lambda a, b, c: a + 0.5 * b * c,
           (((2, 3), (3,), (2, 1)), ((), (2, 3), ())), gradgrad=True),
    OpInfo("addcdiv", lambda T, a, b, c: a.addcdiv(b, c, value=2), lambda a, b, c: a + 2 * b / c,
           (((2, 3), (2, 3), (3,)),), domain=(uniform(), uniform(), NONZERO), gradgrad=True),
    OpInfo("lerp", lambda T, a, b: a.lerp(b, 0.75), lambda a, b: a + 0.75 * (b - a), BINARY_SHAPES[:2]),
    OpInfo("lerp_tensor", lambda T, a, b, w: T.lerp(a, b, w), lambda a, b, w: a + w * (b - a),
           (((2, 3), (2, 3), (3,)),), gradgrad=True),
    # --- with Python numbers, on either side
    OpInfo("add_scalar", lambda T, x: x + 2.5, lambda x: x + 2.5, UNARY_SHAPES),
    OpInfo("radd_scalar", lambda T, x: 2.5 + x, lambda x: 2.5 + x, UNARY_SHAPES),
    OpInfo("sub_scalar", lambda T, x: x - 2, lambda x: x - 2, UNARY_SHAPES),
    OpInfo("rsub_scalar", lambda T, x: 2 - x, lambda x: 2 - x, UNARY_SHAPES),
    OpInfo("mul_scalar", lambda T, x: x * 3, lambda x: x * 3, UNARY_SHAPES, gradgrad=True),
    OpInfo("rmul_scalar", lambda T, x: 3 * x, lambda x: 3 * x, UNARY_SHAPES),
    OpInfo("div_scalar", lambda T, x: x / 4, lambda x: x / 4, UNARY_SHAPES),
    OpInfo("rdiv_scalar", lambda T, x: 4 / x, lambda x: 4 / x, UNARY_SHAPES, domain=NONZERO, gradgrad=True),
    OpInfo("pow_int", lambda T, x: x ** 2, lambda x: x ** 2, UNARY_SHAPES, gradgrad=True),
    OpInfo("pow_3", lambda T, x: x ** 3, lambda x: x ** 3, UNARY_SHAPES, gradgrad=True),
    OpInfo("pow_float", lambda T, x: x ** 2.5, lambda x: x ** 2.5, UNARY_SHAPES, domain=POSITIVE, gradgrad=True),
    OpInfo("pow_negative", lambda T, x: x ** -1.5, lambda x: x ** -1.5, UNARY_SHAPES, domain=POSITIVE),
    OpInfo("pow_zero", lambda T, x: x ** 0, lambda x: x ** 0, UNARY_SHAPES),
    OpInfo("pow_fn", lambda T, x: T.pow(x, 3), lambda x: x ** 3, UNARY_SHAPES),
    OpInfo("rpow_scalar", lambda T, x: 2 ** x, lambda x: 2.0 ** x, UNARY_SHAPES, gradgrad=True),
    # --- unary
    OpInfo("neg", lambda T, x: -x, np.negative, UNARY_SHAPES),
    OpInfo("neg_fn", lambda T, x: T.neg(x), np.negative, UNARY_SHAPES[:1]),
    OpInfo("abs", lambda T, x: x.abs(), np.abs, UNARY_SHAPES, domain=NONZERO),
    OpInfo("exp", lambda T, x: T.exp(x), np.exp, UNARY_SHAPES, gradgrad=True),
    OpInfo("log", lambda T, x: T.log(x), np.log, UNARY_SHAPES, domain=POSITIVE, gradgrad=True),
    OpInfo("log1p", lambda T, x: x.log1p(), np.log1p, UNARY_SHAPES, domain=uniform(-0.6, 2.0)),
    OpInfo("sqrt", lambda T, x: x.sqrt(), np.sqrt, UNARY_SHAPES, domain=POSITIVE),
    OpInfo("sin", lambda T, x: T.sin(x), np.sin, UNARY_SHAPES),
    OpInfo("cos", lambda T, x: x.cos(), np.cos, UNARY_SHAPES),
    OpInfo("tan", lambda T, x: T.tan(x), np.tan, UNARY_SHAPES, domain=uniform(-1.2, 1.2)),
    OpInfo("tanh", lambda T, x: x.tanh(), np.tanh, UNARY_SHAPES, gradgrad=True),
    OpInfo("sigmoid", lambda T, x: T.sigmoid(x), np_sigmoid, UNARY_SHAPES, gradgrad=True),
    OpInfo("sigmoid_large", lambda T, x: x.sigmoid(), np_sigmoid, (((4,),),), domain=fixed([-30., -5., 5., 30.])),
    OpInfo("relu", lambda T, x: T.relu(x), lambda x: np.maximum(x, 0), UNARY_SHAPES, domain=NONZERO),
    OpInfo("reciprocal", lambda T, x: x.reciprocal(), np.reciprocal, UNARY_SHAPES, domain=NONZERO),
    OpInfo("frac", lambda T, x: T.frac(x), lambda x: x - np.trunc(x), UNARY_SHAPES,
           domain=away_from(-2.0, -1.0, 0.0, 1.0, 2.0, lo=-2.8, hi=2.8, margin=0.1)),
    OpInfo("square", lambda T, x: T.square(x), np.square, UNARY_SHAPES),
    OpInfo("clamp", lambda T, x: x.clamp(-0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5), UNARY_SHAPES,
           domain=away_from(-0.5, 0.5, lo=-1.5, hi=1.5, margin=0.1)),
    OpInfo("clamp_min", lambda T, x: T.clamp(x, min=-0.5), lambda x: np.maximum(x, -0.5), UNARY_SHAPES[:1],
           domain=away_from(-0.5)),
    OpInfo("clamp_max", lambda T, x: x.clamp(max=0.5), lambda x: np.minimum(x, 0.5), UNARY_SHAPES[:1],
           domain=away_from(0.5)),
    OpInfo("clamp_tensor", lambda T, x, lo: T.clamp(x, min=lo), np.maximum, (((2, 3), (3,)),)),
    OpInfo("where", lambda T, a, b: T.where(T.tensor(COND), a, b), lambda a, b: np.where(COND, a, b),
           (((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 3), ()))),
    OpInfo("where_scalar", lambda T, a: T.where(T.tensor(COND), a, 0.0), lambda a: np.where(COND, a, 0.0),
           (((2, 3),), ((3,),))),
    # --- matrix products
    OpInfo("matmul", lambda T, a, b: T.matmul(a, b), np.matmul,
           (((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((2, 2, 3), (3, 4)),
            ((3,), (2, 3, 4)), ((2, 2, 3), (3,)), ((2, 1, 2, 3), (3, 3, 2)), ((2, 2, 3), (2, 3, 4))),
           gradgrad=True),
    OpInfo("matmul_operator", lambda T, a, b: a @ b, np.matmul, (((2, 3), (3, 4)), ((3,), (3,)), ((2, 2, 3), (3, 2)))),
    OpInfo("mm", lambda T, a, b: T.mm(a, b), np.matmul, (((2, 3), (3, 4)),), gradgrad=True),
    OpInfo("dot", lambda T, a, b: T.dot(a, b), np.dot, (((3,), (3,)),)),
    OpInfo("mv", lambda T, a, b: a.mv(b), np.matmul, (((2, 3), (3,)),)),
    OpInfo("addmv", lambda T, s, m, v: T.addmv(s, m, v), lambda s, m, v: s + m @ v, (((2,), (2, 3), (3,)), ((), (2, 3), (3,))),
           gradgrad=True),
    OpInfo("addmv_beta_alpha", lambda T, s, m, v: s.addmv(m, v, beta=0.5, alpha=-2), lambda s, m, v: 0.5 * s - 2 * (m @ v),
           (((2,), (2, 3), (3,)), ((1,), (2, 3), (3,)))),
    OpInfo("bmm", lambda T, a, b: T.bmm(a, b), np.matmul, (((2, 2, 3), (2, 3, 4)),)),
    OpInfo("outer", lambda T, a, b: T.outer(a, b), np.outer, (((3,), (4,)),)),
    OpInfo("einsum_matmul", lambda T, a, b: T.einsum("ij,jk->ik", a, b), np.matmul, (((2, 3), (3, 4)),),
           gradgrad=True),
    OpInfo("einsum_batched", lambda T, a, b: T.einsum("Naf,Mbf->NMab", a, b),
           lambda a, b: np.einsum("Naf,Mbf->NMab", a, b), (((2, 3, 4), (3, 2, 4)),)),
    OpInfo("einsum_trace_diag", lambda T, x: T.einsum("NMKK->NMK", x), lambda x: np.einsum("NMKK->NMK", x),
           (((2, 1, 3, 3),),)),
    OpInfo("einsum_outer_dot", lambda T, a, b: (T.einsum("i,j", a, b), T.einsum("i,i", a, a)),
           lambda a, b: (np.einsum("i,j", a, b), np.einsum("i,i", a, a)), (((3,), (4,)),)),
    OpInfo("einsum_ellipsis_three", lambda T, a, b, c: T.einsum("...ij,jk,k->...i", a, b, c),
           lambda a, b, c: np.einsum("...ij,jk,k->...i", a, b, c), (((2, 2, 3), (3, 4), (4,)),)),
    OpInfo("diag", lambda T, x: T.diag(x), np.diag, (((3,),), ((3, 4),))),
    OpInfo("diag_offset", lambda T, x: x.diag(-1), lambda x: np.diag(x, -1), (((3,),), ((3, 4),))),
    OpInfo("diagonal", lambda T, x: x.diagonal(1, 0, 2), lambda x: np.diagonal(x, 1, 0, 2), (((3, 2, 4),),)),
    OpInfo("diag_embed", lambda T, x: T.diag_embed(x, 1, 0, 2),
           lambda x: np.moveaxis(np.stack([np.diag(r, 1) for r in x]), 0, 1), (((2, 3),),)),
    OpInfo("trace", lambda T, x: T.trace(x), np.trace, (((3, 4),),), gradgrad=True),
    # --- shapes and views
    OpInfo("t", lambda T, x: x.t(), np.transpose, (((2, 3),), ((3,),))),
    OpInfo("T_property", lambda T, x: x.T, np.transpose, (((2, 3),),)),
    OpInfo("transpose", lambda T, x: x.transpose(0, 1), lambda x: np.swapaxes(x, 0, 1), (((2, 3),),)),
    OpInfo("transpose_neg", lambda T, x: T.transpose(x, -1, 0), lambda x: np.swapaxes(x, -1, 0), (((2, 3, 4),),)),
    OpInfo("permute", lambda T, x: x.permute(2, 0, 1), lambda x: np.transpose(x, (2, 0, 1)), (((2, 3, 4),),)),
    OpInfo("movedim", lambda T, x: x.movedim((0, -1), (2, 0)), lambda x: np.moveaxis(x, (0, -1), (2, 0)),
           (((2, 3, 4),),)),
    OpInfo("reshape", lambda T, x: x.reshape(3, 2), lambda x: x.reshape(3, 2), (((2, 3),),)),
    OpInfo("reshape_infer", lambda T, x: T.reshape(x, (-1,)), lambda x: x.reshape(-1), (((2, 3),),)),
    OpInfo("reshape_noncontiguous", lambda T, x: x.t().reshape(-1), lambda x: x.T.reshape(-1), (((2, 3),),)),
    OpInfo("view", lambda T, x: x.view(3, 2), lambda x: x.reshape(3, 2), (((2, 3),),)),
    OpInfo("view_infer", lambda T, x: x.view(-1, 2), lambda x: x.reshape(-1, 2), (((2, 2, 3),),)),
    OpInfo("flatten", lambda T, x: x.flatten(), lambda x: x.reshape(-1), (((2, 3, 2),), ((),))),
    OpInfo("flatten_start", lambda T, x: T.flatten(x, 1), lambda x: x.reshape(2, -1), (((2, 3, 2),),)),
    OpInfo("squeeze", lambda T, x: x.squeeze(), np.squeeze, (((1, 3, 1),),)),
    OpInfo("squeeze_dim", lambda T, x: x.squeeze(0), lambda x: np.squeeze(x, 0), (((1, 3, 1),),)),
    OpInfo("squeeze_dim_noop", lambda T, x: x.squeeze(1), lambda x: x, (((1, 3, 1),),)),
    OpInfo("unsqueeze", lambda T, x: x.unsqueeze(0), lambda x: x[None], (((2, 3),), ((),))),
    OpInfo("unsqueeze_neg", lambda T, x: T.unsqueeze(x, -1), lambda x: x[..., None], (((2, 3),),)),
    OpInfo("expand", lambda T, x: x.expand(2, 3), lambda x: np.broadcast_to(x, (2, 3)), (((1, 3),), ((),))),
    OpInfo("expand_new_dims", lambda T, x: x.expand(2, -1, 4), lambda x: np.broadcast_to(x, (2, 3, 4)),
           (((3, 1),),)),
    OpInfo("repeat", lambda T, x: x.repeat(2, 1), lambda x: np.tile(x, (2, 1)), (((2, 3),),)),
    OpInfo("repeat_new_dim", lambda T, x: x.repeat(2, 1, 2), lambda x: np.tile(x, (2, 1, 2)), (((2, 3),),)),
    OpInfo("cat", lambda T, *xs: T.cat(xs), lambda *xs: np.concatenate(xs), (((2, 3), (1, 3), (3, 3)),)),
    OpInfo("cat_dim1", lambda T, *xs: T.cat(xs, dim=1), lambda *xs: np.concatenate(xs, 1), (((2, 3), (2, 1)),)),
    OpInfo("cat_neg", lambda T, *xs: T.cat(list(xs), -1), lambda *xs: np.concatenate(xs, -1),
           (((2, 2, 1), (2, 2, 3)),)),
    OpInfo("stack", lambda T, *xs: T.stack(xs), lambda *xs: np.stack(xs), (((2, 3), (2, 3), (2, 3)),)),
    OpInfo("stack_dim1", lambda T, *xs: T.stack(xs, 1), lambda *xs: np.stack(xs, 1), (((2, 3), (2, 3)),)),
    OpInfo("stack_neg", lambda T, *xs: T.stack(xs, dim=-1), lambda *xs: np.stack(xs, -1), (((2, 3), (2, 3)),)),
    OpInfo("split", lambda T, x: x.split(2), lambda x: [x[0:2], x[2:4], x[4:5]], (((5, 3),),)),
    OpInfo("split_sections", lambda T, x: T.split(x, [1, 3, 1]), lambda x: [x[0:1], x[1:4], x[4:5]], (((5, 3),),)),
    OpInfo("split_dim1", lambda T, x: x.split(2, dim=1), lambda x: [x[:, 0:2], x[:, 2:4], x[:, 4:]], (((2, 5),),)),
    OpInfo("chunk", lambda T, x: x.chunk(3), lambda x: [x[0:2], x[2:4], x[4:5]], (((5, 3),),)),
    OpInfo("chunk_dim1", lambda T, x: T.chunk(x, 2, dim=1), lambda x: [x[:, :2], x[:, 2:]], (((2, 4),),)),
    OpInfo("unbind", lambda T, x: x.unbind(), list, (((3, 2),),)),
    OpInfo("unbind_dim1", lambda T, x: T.unbind(x, 1), lambda x: list(x.T), (((3, 2),),)),
    OpInfo("flip", lambda T, x: x.flip(0), lambda x: np.flip(x, 0), (((2, 3),),)),
    OpInfo("flip_dims", lambda T, x: T.flip(x, (0, 1)), lambda x: np.flip(x, (0, 1)), (((2, 3),),)),
    OpInfo("narrow", lambda T, x: x.narrow(1, 1, 2), lambda x: x[:, 1:3], (((2, 4),),)),
    OpInfo("narrow_fn", lambda T, x: T.narrow(x, 0, 0, 1), lambda x: x[0:1], (((2, 4),),)),
    OpInfo("clone", lambda T, x: x.clone(), np.copy, UNARY_SHAPES),
    OpInfo("to_float64", lambda T, x: x.to(T.float64), np.copy, UNARY_SHAPES, result_dtype="float64"),
    # --- indexing
    OpInfo("index_int", lambda T, x: x[1], lambda x: x[1], (((3, 4),),), gradgrad=True),
    OpInfo("index_negative", lambda T, x: x[-1, -2], lambda x: x[-1, -2], (((3, 4),),)),
    OpInfo("index_slice", lambda T, x: x[:, 1:3], lambda x: x[:, 1:3], (((3, 4),),), gradgrad=True),
    OpInfo("index_step", lambda T, x: x[::2, 1::2], lambda x: x[::2, 1::2], (((5, 4),),)),
    OpInfo("index_none", lambda T, x: x[None, :, None], lambda x: x[None, :, None], (((3, 4),),)),
    OpInfo("index_ellipsis", lambda T, x: x[..., 1], lambda x: x[..., 1], (((2, 3, 4),),)),
    OpInfo("index_ellipsis_none", lambda T, x: x[1, ..., None], lambda x: x[1, ..., None], (((2, 3, 4),),)),
    OpInfo("index_fancy_list", lambda T, x: x[[2, 0, 2]], lambda x: x[[2, 0, 2]], (((3, 4),),), gradgrad=True),
    OpInfo("index_fancy_tensor", lambda T, x: x[T.tensor(FANCY)], lambda x: x[FANCY], (((3, 4),),)),
    OpInfo("index_fancy_pair", lambda T, x: x[[0, 1, 1], [2, 0, 2]], lambda x: x[[0, 1, 1], [2, 0, 2]],
           (((3, 4),),)),
    OpInfo("index_bool_mask", lambda T, x: x[T.tensor(MASK)], lambda x: x[MASK], (((2, 3),),), gradgrad=True),
    OpInfo("index_mixed", lambda T, x: x[1:, [0, 2]], lambda x: x[1:, [0, 2]], (((3, 4),),)),
    OpInfo("index_int_fancy", lambda T, x: x[0, [3, 1]], lambda x: x[0, [3, 1]], (((3, 4),),)),
    # PyTorch applies ints and slices first, then the index arrays (NumPy would put the 2 first)
    OpInfo("index_int_slice_fancy", lambda T, x: x[0, :, [0, 1]], lambda x: x[0][:, [0, 1]], (((3, 4, 5),),)),
    OpInfo("index_fancy_slice_int", lambda T, x: x[[2, 0], :, 1], lambda x: x[:, :, 1][[2, 0]], (((3, 4, 5),),)),
    # --- reductions
    OpInfo("sum", lambda T, x: x.sum(), np.sum, (((2, 3),), ((),)), gradgrad=True),
    OpInfo("sum_dim", lambda T, x: T.sum(x, 1), lambda x: x.sum(1), (((2, 3),),)),
    OpInfo("sum_dims", lambda T, x: x.sum((0, 2)), lambda x: x.sum((0, 2)), (((2, 3, 4),),)),
    OpInfo("sum_keepdim", lambda T, x: x.sum(-1, keepdim=True), lambda x: x.sum(-1, keepdims=True), (((2, 3),),)),
    OpInfo("mean", lambda T, x: x.mean(), np.mean, (((2, 3),), ((),)), gradgrad=True),
    OpInfo("mean_dim", lambda T, x: T.mean(x, 0), lambda x: x.mean(0), (((2, 3),),)),
    OpInfo("mean_dims_keepdim", lambda T, x: x.mean((1, 2), keepdim=True), lambda x: x.mean((1, 2), keepdims=True),
           (((2, 3, 4),),)),
    OpInfo("prod", lambda T, x: x.prod(), np.prod, (((2, 3),),)),
    OpInfo("prod_dim", lambda T, x: T.prod(x, 1), lambda x: x.prod(1), (((2, 3),),)),
    OpInfo("prod_one_zero", lambda T, x: x.prod(), np.prod, (((2, 3),),), domain=with_zeros(4)),
    OpInfo("prod_two_zeros", lambda T, x: x.prod(), np.prod, (((2, 3),),), domain=with_zeros(1, 4),
           gradgrad=True),
    OpInfo("prod_dim_zeros", lambda T, x: x.prod(1, keepdim=True), lambda x: x.prod(1, keepdims=True),
           (((3, 3),),), domain=with_zeros(1, 3, 5), gradgrad=True),
    OpInfo("max", lambda T, x: x.max(), np.max, (((2, 3),),), domain=distinct()),
    OpInfo("max_ties", lambda T, x: T.max(x), np.max, (((2, 3),),), domain=fixed([[1, 3, 0], [3, -1, 3]]),
           gradcheck=False, grad_ref=np_tie_grad(np.max)),
    OpInfo("max_dim", lambda T, x: x.max(1), lambda x: (x.max(1), x.argmax(1)), (((2, 3),),), domain=distinct()),
    OpInfo("max_dim_keepdim", lambda T, x: T.max(x, 0, keepdim=True),
           lambda x: (x.max(0, keepdims=True), x.argmax(0)[None]), (((3, 2),),), domain=distinct()),
    OpInfo("min", lambda T, x: T.min(x), np.min, (((2, 3),),), domain=distinct()),
    OpInfo("min_ties", lambda T, x: x.min(), np.min, (((4,),),), domain=fixed([-2, 5, -2, -2]),
           gradcheck=False, grad_ref=np_tie_grad(np.min)),
    OpInfo("min_dim", lambda T, x: x.min(dim=-1), lambda x: (x.min(-1), x.argmin(-1)), (((2, 3),),),
           domain=distinct()),
    OpInfo("var", lambda T, x: x.var(), lambda x: np.var(x, ddof=1), (((2, 3),),)),
    OpInfo("var_dim", lambda T, x: T.var(x, 1), lambda x: np.var(x, 1, ddof=1), (((2, 3),),)),
    OpInfo("var_biased", lambda T, x: x.var(0, unbiased=False, keepdim=True),
           lambda x: np.var(x, 0, keepdims=True), (((3, 2),),)),
    OpInfo("var_correction", lambda T, x: T.var(x, dim=1, correction=0), lambda x: np.var(x, 1), (((2, 3),),)),
    OpInfo("std", lambda T, x: x.std(), lambda x: np.std(x, ddof=1), (((2, 3),),)),
    OpInfo("std_dim", lambda T, x: T.std(x, 0), lambda x: np.std(x, 0, ddof=1), (((3, 2),),)),
    OpInfo("std_biased", lambda T, x: x.std(1, unbiased=False), lambda x: np.std(x, 1), (((2, 3),),)),
    OpInfo("norm", lambda T, x: x.norm(), np_norm, (((2, 3),),), gradgrad=True),
    OpInfo("norm_p1", lambda T, x: x.norm(p=1), lambda x: np_norm(x, 1), (((2, 3),),), domain=NONZERO),
    OpInfo("norm_inf", lambda T, x: T.norm(x, p=float("inf")), lambda x: np_norm(x, math.inf), (((2, 3),),),
           domain=distinct(positive=True)),
    OpInfo("norm_p3", lambda T, x: x.norm(p=3), lambda x: np_norm(x, 3), (((2, 3),),), domain=NONZERO),
    OpInfo("norm_dim", lambda T, x: x.norm(dim=1), lambda x: np_norm(x, 2, 1), (((2, 3),),), gradgrad=True),
    OpInfo("norm_p1_dim", lambda T, x: T.norm(x, 1, 0), lambda x: np_norm(x, 1, 0), (((2, 3),),), domain=NONZERO),
    OpInfo("norm_inf_dim", lambda T, x: x.norm(p=float("inf"), dim=1), lambda x: np_norm(x, math.inf, 1),
           (((2, 3),),), domain=distinct(positive=True)),
    OpInfo("norm_p3_dim_keepdim", lambda T, x: x.norm(p=3, dim=1, keepdim=True),
           lambda x: np_norm(x, 3, 1, keepdim=True), (((2, 3),),), domain=NONZERO),
    OpInfo("logsumexp", lambda T, x: T.logsumexp(x, 1), lambda x: np_logsumexp(x, 1), (((2, 3),),)),
    OpInfo("logsumexp_keepdim", lambda T, x: x.logsumexp(0, keepdim=True),
           lambda x: np_logsumexp(x, 0, keepdim=True), (((2, 3),),)),
    OpInfo("logsumexp_dims", lambda T, x: x.logsumexp((0, 1)), lambda x: np_logsumexp(x, (0, 1)), (((2, 3),),)),
    OpInfo("softmax", lambda T, x: x.softmax(1), lambda x: np_softmax(x, 1), (((2, 3),),), gradgrad=True),
    OpInfo("softmax_dim0", lambda T, x: T.softmax(x, 0), lambda x: np_softmax(x, 0), (((2, 3),),)),
    OpInfo("softmax_last", lambda T, x: T.softmax(x, dim=-1), lambda x: np_softmax(x, -1), (((2, 2, 3),),)),
    OpInfo("log_softmax", lambda T, x: x.log_softmax(1), lambda x: np.log(np_softmax(x, 1)), (((2, 3),),),
           gradgrad=True),
    OpInfo("log_softmax_dim0", lambda T, x: T.log_softmax(x, 0), lambda x: np.log(np_softmax(x, 0)),
           (((2, 3),),)),
    OpInfo("cumsum", lambda T, x: x.cumsum(0), lambda x: np.cumsum(x, 0), (((3, 2),), ((4,),))),
    OpInfo("cumsum_dim1", lambda T, x: T.cumsum(x, dim=1), lambda x: np.cumsum(x, 1), (((2, 3),),)),
    OpInfo("cumprod", lambda T, x: T.cumprod(x, 1), lambda x: np.cumprod(x, 1), (((2, 3),), ((2, 4),))),
    OpInfo("gather", lambda T, x: T.gather(x, 1, T.tensor(GATHER_IDX_1)),
           lambda x: np.take_along_axis(x, GATHER_IDX_1, 1), (((2, 3),),)),
    OpInfo("gather_dim0", lambda T, x: x.gather(0, T.tensor(GATHER_IDX_0)),
           lambda x: np.take_along_axis(x, GATHER_IDX_0, 0), (((2, 3),),)),
    # convolution and pooling (references in conv_refs.py)
    OpInfo("conv2d", lambda T, x, w, b: T.nn.functional.conv2d(x, w, b), np_conv, (((2, 3, 6, 5), (4, 3, 3, 2), (4,)),),
           gradgrad=True),
    OpInfo("conv2d_stride_pad", lambda T, x, w: T.nn.functional.conv2d(x, w, stride=2, padding=(1, 2)),
           lambda x, w: np_conv(x, w, stride=2, padding=(1, 2)), (((2, 2, 7, 6), (3, 2, 3, 3)),)),
    OpInfo("conv2d_dilation_groups", lambda T, x, w, b: T.nn.functional.conv2d(x, w, b, 1, 1, 2, 2),
           lambda x, w, b: np_conv(x, w, b, 1, 1, 2, 2), (((1, 4, 7, 6), (6, 2, 3, 2), (6,)),), gradgrad=True),
    OpInfo("conv2d_same_unbatched", lambda T, x, w: T.nn.functional.conv2d(x, w, padding="same"),
           lambda x, w: np_conv(x, w, padding="same"), (((2, 5, 5), (3, 2, 3, 3)), ((2, 5, 5), (3, 2, 2, 3)))),
    OpInfo("conv1d", lambda T, x, w, b: T.nn.functional.conv1d(x, w, b, stride=2, padding=1),
           lambda x, w, b: np_conv(x, w, b, stride=2, padding=1), (((2, 3, 7), (4, 3, 3), (4,)),), gradgrad=True),
    OpInfo("conv1d_dilation_groups", lambda T, x, w: T.nn.functional.conv1d(x, w, dilation=2, groups=3),
           lambda x, w: np_conv(x, w, dilation=2, groups=3), (((2, 3, 8), (6, 1, 3)),)),
    OpInfo("max_pool2d", lambda T, x: T.nn.functional.max_pool2d(x, 2, return_indices=True),
           lambda x: np_max_pool2d(x, 2), (((2, 2, 5, 4),), ((3, 4, 4),)), domain=distinct(), gradgrad=True),
    OpInfo("max_pool2d_overlap_ceil", lambda T, x: T.nn.functional.max_pool2d(x, 3, 2, 1, ceil_mode=True),
           lambda x: np_max_pool2d(x, 3, 2, 1, ceil_mode=True)[0], (((1, 2, 6, 7),),), domain=distinct()),
    OpInfo("max_pool2d_dilation", lambda T, x: T.nn.functional.max_pool2d(x, (2, 3), 1, (1, 0), 2),
           lambda x: np_max_pool2d(x, (2, 3), 1, (1, 0), 2)[0], (((1, 2, 5, 7),),), domain=distinct()),
    OpInfo("avg_pool2d", lambda T, x: T.nn.functional.avg_pool2d(x, 2), lambda x: np_avg_pool2d(x, 2),
           (((2, 2, 5, 4),), ((3, 4, 4),)), gradgrad=True),
    OpInfo("avg_pool2d_pad_ceil", lambda T, x: T.nn.functional.avg_pool2d(x, 3, 2, 1, True, False),
           lambda x: np_avg_pool2d(x, 3, 2, 1, True, False), (((1, 2, 6, 7),),)),
    OpInfo("avg_pool2d_divisor", lambda T, x: T.nn.functional.avg_pool2d(x, (2, 3), 1, 1, True, True, 4),
           lambda x: np_avg_pool2d(x, (2, 3), 1, 1, True, True, 4), (((1, 2, 5, 6),),)),
    OpInfo("adaptive_avg_pool2d", lambda T, x: T.nn.functional.adaptive_avg_pool2d(x, (3, 2)),
           lambda x: np_adaptive_avg_pool2d(x, (3, 2)), (((2, 2, 7, 5),), ((2, 4, 4),)), gradgrad=True),
    OpInfo("adaptive_avg_pool2d_1x1", lambda T, x: T.nn.functional.adaptive_avg_pool2d(x, 1),
           lambda x: np_adaptive_avg_pool2d(x, 1), (((2, 2, 3, 4),),)),
    OpInfo("max_pool1d", lambda T, x: T.nn.functional.max_pool1d(x, 3, 2, 1, return_indices=True),
           lambda x: tuple(a[..., 0, :] for a in np_max_pool2d(x[..., None, :], (1, 3), (1, 2), (0, 1))),
           (((2, 3, 8),), ((3, 7),)), domain=distinct()),
    OpInfo("avg_pool1d", lambda T, x: T.nn.functional.avg_pool1d(x, 3, 2, 1, ceil_mode=True),
           lambda x: np_avg_pool2d(x[..., None, :], (1, 3), (1, 2), (0, 1), True)[..., 0, :], (((2, 3, 8),),)),
    OpInfo("adaptive_avg_pool1d", lambda T, x: T.nn.functional.adaptive_avg_pool1d(x, 3),
           lambda x: np_adaptive_avg_pool2d(x[..., None, :], (1, 3))[..., 0, :], (((2, 3, 8),), ((3, 7),))),
    OpInfo("sort", lambda T, x: x.sort(), lambda x: (np.sort(x, -1), np.argsort(x, -1)), (((2, 3),), ((5,),)),
           domain=distinct(), gradgrad=True),
    OpInfo("sort_descending_dim0", lambda T, x: T.sort(x, 0, descending=True),
           lambda x: (-np.sort(-x, 0), np.argsort(-x, 0)), (((3, 2),),), domain=distinct()),
    OpInfo("msort", lambda T, x: T.msort(x), lambda x: np.sort(x, 0), (((3, 2),),), domain=distinct()),
    OpInfo("topk", lambda T, x: x.topk(2), lambda x: (-np.sort(-x, -1)[..., :2], np.argsort(-x, -1)[..., :2]),
           (((2, 4),),), domain=distinct(), gradgrad=True),
    OpInfo("topk_smallest_dim0", lambda T, x: T.topk(x, 2, dim=0, largest=False),
           lambda x: (np.sort(x, 0)[:2], np.argsort(x, 0)[:2]), (((3, 2),),), domain=distinct()),
    OpInfo("index_add", lambda T, x, s: x.index_add(0, T.tensor(INDEX_ADD_IDX), s, alpha=2),
           np_index_add(0, 2), (((3, 2), (4, 2)),), gradgrad=True),
    OpInfo("index_add_dim1", lambda T, x, s: T.index_add(x, 1, T.tensor(INDEX_ADD_IDX), s),
           np_index_add(1, 1), (((2, 3), (2, 4)),)),
]

# ---------------------------------------------------------------------------- more activations (nn.functional)
_SELU_A, _SELU_S = 1.6732632423543772, 1.0507009873554805


def np_glu(x, axis=-1):
    a, b = np.split(x, 2, axis)
    return a * np_sigmoid(b)


def np_softmin(x, dim):
    return np_softmax(-x, dim)


OPS += [
    OpInfo("relu6", lambda T, x: T.nn.functional.relu6(x), lambda x: np.clip(x, 0, 6), UNARY_SHAPES,
           domain=away_from(0.0, 6.0, lo=-2.0, hi=7.0), gradgrad=True),
    OpInfo("hardtanh", lambda T, x: T.nn.functional.hardtanh(x, -1.5, 1.0), lambda x: np.clip(x, -1.5, 1.0),
           UNARY_SHAPES, domain=away_from(-1.5, 1.0), gradgrad=True),
    OpInfo("threshold", lambda T, x: T.nn.functional.threshold(x, 0.5, -3.0), lambda x: np.where(x <= 0.5, -3.0, x),
           UNARY_SHAPES, domain=away_from(0.5), gradgrad=True),
    OpInfo("hardswish", lambda T, x: T.nn.functional.hardswish(x), lambda x: x * np.clip(x + 3, 0, 6) / 6,
           UNARY_SHAPES, domain=away_from(-3.0, 3.0, lo=-4.0, hi=4.0), gradgrad=True),
    OpInfo("hardsigmoid", lambda T, x: T.nn.functional.hardsigmoid(x), lambda x: np.clip(x + 3, 0, 6) / 6,
           UNARY_SHAPES, domain=away_from(-3.0, 3.0, lo=-4.0, hi=4.0)),
    OpInfo("softshrink", lambda T, x: T.nn.functional.softshrink(x, 0.5),
           lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0.0)), UNARY_SHAPES,
           domain=away_from(-0.5, 0.5), gradgrad=True),
    OpInfo("hardshrink", lambda T, x: x.hardshrink(0.5), lambda x: np.where(np.abs(x) > 0.5, x, 0.0), UNARY_SHAPES,
           domain=away_from(-0.5, 0.5), gradgrad=True),
    OpInfo("logsigmoid", lambda T, x: T.nn.functional.logsigmoid(x), lambda x: -np.logaddexp(0, -x), UNARY_SHAPES,
           gradgrad=True),
    OpInfo("selu", lambda T, x: T.selu(x), lambda x: _SELU_S * np.where(x > 0, x, _SELU_A * np.expm1(x)),
           UNARY_SHAPES, domain=NONZERO, gradgrad=True),
    OpInfo("celu", lambda T, x: T.nn.functional.celu(x, 1.5), lambda x: np.where(x > 0, x, 1.5 * np.expm1(x / 1.5)),
           UNARY_SHAPES, domain=NONZERO, gradgrad=True),
    OpInfo("mish", lambda T, x: T.nn.functional.mish(x), lambda x: x * np.tanh(np.log1p(np.exp(x))), UNARY_SHAPES,
           gradgrad=True),
    OpInfo("softsign", lambda T, x: T.nn.functional.softsign(x), lambda x: x / (1 + np.abs(x)), UNARY_SHAPES,
           domain=NONZERO, gradgrad=True),
    OpInfo("tanhshrink", lambda T, x: T.nn.functional.tanhshrink(x), lambda x: x - np.tanh(x), UNARY_SHAPES,
           gradgrad=True),
    OpInfo("softmin", lambda T, x: T.nn.functional.softmin(x, 1), lambda x: np_softmin(x, 1), (((2, 3),),),
           gradgrad=True),
    OpInfo("glu", lambda T, x: T.nn.functional.glu(x), np_glu, (((2, 4),), ((3, 2),)), gradgrad=True),
    OpInfo("glu_dim0", lambda T, x: T.nn.functional.glu(x, 0), lambda x: np_glu(x, 0), (((4, 3),),), gradgrad=True),
    OpInfo("prelu", lambda T, x, w: T.nn.functional.prelu(x, w),
           lambda x, w: np.where(x > 0, x, w.reshape(1, -1, *(1,) * (x.ndim - 2)) * x), (((2, 3, 2), (3,)),),
           domain=(NONZERO, uniform(0.1, 0.5)), gradgrad=True),
    OpInfo("prelu_one", lambda T, x, w: T.prelu(x, w), lambda x, w: np.where(x > 0, x, w.reshape((1,) * x.ndim) * x),
           (((2, 3), (1,)), ((), (1,))), domain=(NONZERO, uniform(0.1, 0.5)), gradgrad=True),
]

# ---------------------------------------------------------------------------- normalization (nn.functional)


def np_batch_norm(x, w=None, b=None, mean=None, var=None, eps=1e-5):
    """Per channel (dim 1): the batch's mean and biased variance unless running ones are given."""
    dims = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    mean = x.mean(dims, keepdims=True) if mean is None else mean.reshape(shape)
    var = x.var(dims, keepdims=True) if var is None else var.reshape(shape)
    y = (x - mean) / np.sqrt(var + eps)
    return y * (1 if w is None else w.reshape(shape)) + (0 if b is None else b.reshape(shape))


def np_layer_norm(x, k, eps=1e-5):
    """Over the last ``k`` dims: the mean and biased variance of each sample."""
    dims = tuple(range(x.ndim - k, x.ndim))
    return (x - x.mean(dims, keepdims=True)) / np.sqrt(x.var(dims, keepdims=True) + eps)


OPS += [
    OpInfo("batch_norm_train", lambda T, x, w, b: T.nn.functional.batch_norm(x, None, None, w, b, True),
           np_batch_norm, (((4, 3), (3,), (3,)), ((2, 3, 5), (3,), (3,)), ((2, 3, 2, 3), (3,), (3,))), gradgrad=True),
    OpInfo("batch_norm_eval", lambda T, x, w, b: T.nn.functional.batch_norm(
           x, T.tensor([0.1, -0.2, 0.3], dtype=x.dtype), T.tensor([0.5, 1.5, 2.0], dtype=x.dtype), w, b),
           lambda x, w, b: np_batch_norm(x, w, b, np.array([0.1, -0.2, 0.3]), np.array([0.5, 1.5, 2.0])),
           (((4, 3), (3,), (3,)), ((2, 3, 2, 3), (3,), (3,))), gradgrad=True),
    OpInfo("batch_norm_no_affine", lambda T, x: T.nn.functional.batch_norm(x, None, None, training=True),
           np_batch_norm, (((5, 3),),), gradgrad=True),
    OpInfo("layer_norm", lambda T, x, w, b: T.nn.functional.layer_norm(x, (4,), w, b),
           lambda x, w, b: np_layer_norm(x, 1) * w + b, (((3, 4), (4,), (4,)), ((2, 2, 4), (4,), (4,))), gradgrad=True),
    OpInfo("layer_norm_2d", lambda T, x: T.nn.functional.layer_norm(x, (2, 3)), lambda x: np_layer_norm(x, 2),
           (((2, 2, 3),),), gradgrad=True),
    OpInfo("tril", lambda T, x: T.tril(x), np.tril, (((3, 4),), ((2, 3, 3),)), gradgrad=True),
    OpInfo("triu_diagonal", lambda T, x: x.triu(diagonal=1), lambda x: np.triu(x, 1), (((4, 3),),), gradgrad=True),
    OpInfo("tril_negative", lambda T, x: x.tril(-1), lambda x: np.tril(x, -1), (((3, 3),),), gradgrad=True),
    OpInfo("meshgrid_ij", lambda T, a, b: T.meshgrid(a, b, indexing="ij"),
           lambda a, b: np.meshgrid(a, b, indexing="ij"), (((3,), (2,)),), gradgrad=True),
    OpInfo("meshgrid_xy", lambda T, a, b, c: T.meshgrid(a, b, c, indexing="xy"),
           lambda a, b, c: np.meshgrid(a, b, c, indexing="xy"), (((3,), (2,), ()),), gradgrad=True),
    OpInfo("normalize", lambda T, x: T.nn.functional.normalize(x, dim=-1),
           lambda x: x / np.sqrt((x * x).sum(-1, keepdims=True)), (((3, 4),),), domain=NONZERO, gradgrad=True),
    OpInfo("group_norm", lambda T, x, w, b: T.nn.functional.group_norm(x, 2, w, b),
           lambda x, w, b: np_layer_norm(x.reshape(x.shape[0], 2, -1), 1).reshape(x.shape)
           * w.reshape(1, -1, 1) + b.reshape(1, -1, 1), (((2, 4, 3), (4,), (4,)),), gradgrad=True),
    OpInfo("instance_norm", lambda T, x: T.nn.functional.instance_norm(x),
           lambda x: np_layer_norm(x, 1), (((2, 3, 4),),), gradgrad=True),
    OpInfo("rms_norm", lambda T, x, w: T.nn.functional.rms_norm(x, (4,), w, eps=1e-6),
           lambda x, w: x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-6) * w, (((2, 3, 4), (4,)),),
           gradgrad=True),
]

# ---------------------------------------------------------------------------- more elementwise math (ops.math_fns)
_np_erf = np.vectorize(math.erf, otypes=[np.float64])
_np_erfc = np.vectorize(math.erfc, otypes=[np.float64])
UNIT = uniform(-0.9, 0.9)

OPS += [
    OpInfo("erf", lambda T, x: T.erf(x), _np_erf, UNARY_SHAPES, gradgrad=True),
    OpInfo("erfc", lambda T, x: x.erfc(), _np_erfc, UNARY_SHAPES, gradgrad=True),
    OpInfo("expm1", lambda T, x: T.expm1(x), np.expm1, UNARY_SHAPES, gradgrad=True),
    OpInfo("log2", lambda T, x: T.log2(x), np.log2, UNARY_SHAPES, domain=POSITIVE, gradgrad=True),
    OpInfo("log10", lambda T, x: x.log10(), np.log10, UNARY_SHAPES, domain=POSITIVE, gradgrad=True),
    OpInfo("sinh", lambda T, x: T.sinh(x), np.sinh, UNARY_SHAPES, gradgrad=True),
    OpInfo("cosh", lambda T, x: x.cosh(), np.cosh, UNARY_SHAPES, gradgrad=True),
    OpInfo("asin", lambda T, x: T.asin(x), np.arcsin, UNARY_SHAPES, domain=UNIT, gradgrad=True),
    OpInfo("acos", lambda T, x: x.acos(), np.arccos, UNARY_SHAPES, domain=UNIT, gradgrad=True),
    OpInfo("atan", lambda T, x: T.arctan(x), np.arctan, UNARY_SHAPES, gradgrad=True),
    OpInfo("asinh", lambda T, x: x.arcsinh(), np.arcsinh, UNARY_SHAPES, gradgrad=True),
    OpInfo("acosh", lambda T, x: T.acosh(x), np.arccosh, UNARY_SHAPES, domain=uniform(1.2, 3.0), gradgrad=True),
    OpInfo("atanh", lambda T, x: T.atanh(x), np.arctanh, UNARY_SHAPES, domain=UNIT, gradgrad=True),
    OpInfo("rsqrt", lambda T, x: T.rsqrt(x), lambda x: 1 / np.sqrt(x), UNARY_SHAPES, domain=POSITIVE, gradgrad=True),
    OpInfo("logit", lambda T, x: T.logit(x), lambda x: np.log(x / (1 - x)), UNARY_SHAPES, domain=uniform(0.1, 0.9),
           gradgrad=True),
    OpInfo("logit_eps", lambda T, x: x.logit(0.2), lambda x: np.log(np.clip(x, 0.2, 0.8) / (1 - np.clip(x, 0.2, 0.8))),
           UNARY_SHAPES, domain=away_from(0.2, 0.8, lo=0.05, hi=0.95, margin=0.05), gradgrad=True),
    OpInfo("xlogy", lambda T, a, b: T.xlogy(a, b), lambda a, b: a * np.log(b), BINARY_SHAPES,
           domain=(uniform(), POSITIVE), gradgrad=True),
    OpInfo("xlogy_scalar_other", lambda T, x: T.xlogy(x, 2.5), lambda x: x * np.log(2.5), UNARY_SHAPES, gradgrad=True),
    OpInfo("xlogy_scalar_self", lambda T, x: T.xlogy(3, x), lambda x: 3 * np.log(x), UNARY_SHAPES, domain=POSITIVE,
           gradgrad=True),
]

# ---------------------------------------------------------------------------- exp2 ... hypot (ops.math_more)
OPS += [
    OpInfo("exp2", lambda T, x: T.exp2(x), np.exp2, UNARY_SHAPES, gradgrad=True),
    OpInfo("sinc", lambda T, x: T.sinc(x), np.sinc, UNARY_SHAPES, gradgrad=True),
    OpInfo("deg2rad", lambda T, x: x.deg2rad(), np.deg2rad, UNARY_SHAPES),
    OpInfo("rad2deg", lambda T, x: T.rad2deg(x), np.rad2deg, UNARY_SHAPES),
    OpInfo("nan_to_num", lambda T, x: T.nan_to_num(x), np.nan_to_num, UNARY_SHAPES),
    OpInfo("logaddexp", lambda T, a, b: T.logaddexp(a, b), np.logaddexp, BINARY_SHAPES, gradgrad=True),
    OpInfo("logaddexp2", lambda T, a, b: a.logaddexp2(b), np.logaddexp2, BINARY_SHAPES, gradgrad=True),
    OpInfo("hypot", lambda T, a, b: T.hypot(a, b), np.hypot, BINARY_SHAPES, domain=(NONZERO, NONZERO), gradgrad=True),
]

BY_NAME = {row.name: row for row in OPS}
assert len(BY_NAME) == len(OPS), "duplicate op names"

# ---------------------------------------------------------------------------- type promotion
# (expression over ``T``, result dtype under PyTorch 2.13), checked against real torch.
PROMOTION = [
    ("T.tensor([1, 2]) * 2.5", "float32"),
    ("T.tensor([1, 2]) * 2", "int64"),
    ("T.tensor([1, 2]) / 2", "float32"),
    ("T.tensor([1, 2]) / T.tensor([2, 4])", "float32"),
    ("T.tensor([1., 2.]) + T.tensor(1., dtype=T.float64)", "float32"),
    ("T.tensor([1., 2.]) + T.tensor([1.], dtype=T.float64)", "float64"),
    ("T.tensor(1.) + T.tensor(1., dtype=T.float64)", "float64"),
    ("T.tensor([1, 2]) + T.tensor(1.)", "float32"),
    ("T.tensor([1, 2]) + T.tensor(1., dtype=T.float64)", "float64"),
    ("T.tensor([1, 2], dtype=T.int32) + T.tensor([1, 2])", "int64"),
    ("T.tensor([1, 2], dtype=T.int32) + 5", "int32"),
    ("T.tensor([1, 2], dtype=T.int32) + T.tensor(5)", "int32"),
    ("3 + T.tensor([1., 2.])", "float32"),
    ("3 + T.tensor([1., 2.], dtype=T.float64)", "float64"),
    ("2.5 * T.tensor([1., 2.], dtype=T.float64)", "float64"),
    ("T.tensor([True, False]) + 1", "int64"),
    ("T.tensor([True, False]) + 1.5", "float32"),
    ("T.tensor([True, False]) + True", "bool"),
    ("T.tensor([1, 2], dtype=T.uint8) + T.tensor([1], dtype=T.int8)", "int16"),
    ("T.tensor([1., 2.], dtype=T.float16) + T.tensor([1.])", "float32"),
    ("T.tensor([1., 2.], dtype=T.float16) * 2.5", "float16"),
    ("T.tensor([1, 2]) ** 2", "int64"),
    ("T.tensor([1, 2]) ** 0.5", "float32"),
    ("2 ** T.tensor([1, 2])", "int64"),
    ("2.0 ** T.tensor([1, 2])", "float32"),
    ("T.tensor([1, 2]) - 0.5", "float32"),
    ("1.5 - T.tensor([1, 2])", "float32"),
    ("T.exp(T.tensor([1, 2]))", "float32"),
    ("T.sqrt(T.tensor([1, 4]))", "float32"),
    ("T.tensor([1, 2]).sigmoid()", "float32"),
    ("T.tensor([-1, 2]).abs()", "int64"),
    ("T.tensor([-1, 2]).relu()", "int64"),
    ("-T.tensor([1, 2], dtype=T.int32)", "int32"),
    ("T.tensor([1, 2]).sum()", "int64"),
    ("T.tensor([1, 2], dtype=T.int32).sum()", "int64"),
    ("T.tensor([True, True]).sum()", "int64"),
    ("T.tensor([1, 2], dtype=T.int32).prod()", "int64"),
    ("T.tensor([1, 2], dtype=T.int32).cumsum(0)", "int64"),
    ("T.tensor([1., 2.]).sum(dtype=T.float64)", "float64"),
    ("T.tensor([1, 2]).max()", "int64"),
    ("T.tensor([[1, 2]]).max(1).indices", "int64"),
    ("T.tensor([1, 2]).float().mean()", "float32"),
    ("T.tensor([1., 2.]) > 1", "bool"),
    ("T.tensor([1, 2]) == T.tensor([1., 3.])", "bool"),
    ("T.where(T.tensor([True, False]), T.tensor([1., 2.]), 0.0)", "float32"),
    ("T.where(T.tensor([True, False]), T.tensor([1., 2.], dtype=T.float64), 0)", "float64"),
    ("T.where(T.tensor([True, False]), T.tensor([1, 2]), 0.5)", "float32"),
    ("T.maximum(T.tensor([1, 2]), T.tensor([1.5]))", "float32"),
    ("T.cat([T.tensor([1, 2]), T.tensor([1.5])])", "float32"),
    ("T.cat([T.tensor([1.]), T.tensor([1.5], dtype=T.float64)])", "float64"),
    ("T.stack([T.tensor([1]), T.tensor([2], dtype=T.int32)])", "int64"),
    ("T.tensor([1, 2]).clamp(0.5, 1.5)", "float32"),
    ("T.tensor([1, 2]).clamp(0, 1)", "int64"),
    ("T.tensor([1., 2.]).to(T.float64)", "float64"),
    ("T.tensor([1.5, 2.5]).long()", "int64"),
    ("T.tensor([[1., 2.]], dtype=T.float64) @ T.tensor([[1.], [2.]], dtype=T.float64)", "float64"),
    ("T.tensor([1, 2]) // 2", "int64"),
    ("T.tensor([1., 2.]) // 2", "float32"),
    ("T.tensor([5, 7]) % 3", "int64"),
]
