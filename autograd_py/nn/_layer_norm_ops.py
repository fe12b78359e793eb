"""``native_layer_norm`` (``grad_fn=<NativeLayerNormBackward0>``) in PyTorch's CPU float arithmetic.

Each row (the trailing ``normalized_shape`` dims, flattened) gets its mean and variance from ATen's
``RowwiseMoments``: Welford's updates on 8-lane vectors in chunks of 16 vectors, chunks merged in a
cascade (``AddMomentsVec`` with its explicit fmadd), the row's tail added one value at a time, then
the lanes merged into it (``AddMoments``). The output and
the gradients follow ``layer_norm_kernel.cpp``, with the fused multiply-adds GCC contracts there
(measured against torch 2.13). With ``create_graph=True`` the backward is written in Tensor ops.
"""
import numpy as np

from .. import _fp
from ..node import Node
from ..ops.base import _make, grad_on, record
from ._norm_ops import _THREADS, _chunks, _lane_dot, _lane_sum

_LANES = 8  # Vectorized<float> of the AVX2 build (measured); 4 doubles
_CHUNK = 16  # kChunkSize: vectors per Welford chunk


def _add_moments(m0_add, m1_add, m2_add, m0, m1, m2):
    """AddMoments (the lanes into the row's scalars): merges (m0_add, m1_add, m2_add) into
    (m0, m1, m2), with the fmas GCC contracts; the counts m0 are Python ints."""
    dt = m1.dtype.type
    n = m0 + m0_add
    c = dt(0) if n == 0 else dt(m0_add) / dt(n)
    delta = m1_add - m1
    m1 = _fp.fma(np.full_like(delta, c), delta, m1)
    m2 = m2 + _fp.fma(delta * delta * c, np.full_like(delta, dt(m0)), m2_add)
    return n, m1, m2


def _add_moments_vec(m0_add, m1_add, m2_add, m0, m1, m2):
    """AddMomentsVec (chunks into the cascade), written with an explicit fmadd:
    ``m1 + c * delta`` rounded twice, ``m2 = fmadd(delta * m0, c * delta, m2 + m2_add)``."""
    dt = m1.dtype.type
    n = m0 + m0_add
    c = dt(0) if n == 0 else dt(m0_add) / dt(n)
    delta = m1_add - m1
    c_delta = delta * c
    m2 = _fp.fma(delta * dt(m0), c_delta, m2 + m2_add)
    return n, m1 + c_delta, m2


def _row_moments(x):
    """(mean, biased variance) of each row of the 2-D C-contiguous ``x`` as RowwiseMoments gives them."""
    dt = x.dtype.type
    rows, size = x.shape
    lanes = _LANES * 4 // x.dtype.itemsize
    n = size // lanes
    zero = np.zeros((rows, lanes), x.dtype)
    stack = []  # the cascade: [m0, m1, m2] per level
    chunks = -(-n // _CHUNK)
    depth = max(int(np.ceil(np.log2(chunks))), 0) if chunks else 0
    stack = [[0, zero, zero] for _ in range(depth)]
    vecs = x[:, :n * lanes].reshape(rows, n, lanes)
    for i in range(chunks):
        count = min(_CHUNK, n - i * _CHUNK)
        m1, m2 = zero, zero
        for j in range(count):
            v = vecs[:, i * _CHUNK + j]
            delta = v - m1
            m1 = _fp.fma(delta, np.full_like(delta, dt(1) / dt(j + 1)), m1)
            m2 = _fp.fma(delta, v - m1, m2)
        if depth == 0:
            top = [count, m1, m2]
            continue
        stack[0] = list(_add_moments_vec(count, m1, m2, *stack[0]))
        mask = i + 1
        j = 1
        while j < depth and mask & 1 == 0:
            stack[j] = list(_add_moments_vec(*stack[j - 1], *stack[j]))
            stack[j - 1] = [0, zero, zero]
            mask >>= 1
            j += 1
    if depth:
        for j in range(1, depth):
            stack[0] = list(_add_moments_vec(*stack[j], *stack[0]))
        top = stack[0]
    m0, m1, m2 = 0, np.zeros(rows, x.dtype), np.zeros(rows, x.dtype)
    for k in range(n * lanes, size):
        value = x[:, k]
        delta = value - m1
        m0 += 1
        m1 = m1 + delta / dt(m0)
        m2 = m2 + delta * (value - m1)  # the scalar tail: not contracted (measured)
    if n:
        for lane in range(lanes):
            m0, m1, m2 = _add_moments(n, top[1][:, lane], top[2][:, lane], m0, m1, m2)
    return m1, m2 / dt(size)


def _forward_data(x, w, b, eps):
    """(y, mean, rstd) of the 2-D ``x`` (rows, size); ``w``/``b`` flat or None."""
    dt = x.dtype.type
    mean, var = _row_moments(x)
    rstd = dt(1) / np.sqrt(var + dt(eps))
    centred = x - mean[:, None]
    if w is None and b is not None:
        # with no weight the kernel's ``(x - mean) * rstd * 1 + beta`` loses its ``* 1`` (the loop is
        # unswitched on gamma_null), leaving one fused multiply-add (measured)
        return _fp.fma(centred, rstd[:, None], b), mean, rstd
    y = centred * rstd[:, None]
    if w is not None:
        y = _fp.fma(y, w, b if b is not None else np.zeros_like(w))
    return y, mean, rstd


def _backward_data(g, x, mean, rstd, w, mask):
    """(grad_input, grad_weight, grad_bias) as ATen's LayerNormBackwardKernel computes them."""
    dt = x.dtype.type
    rows, size = x.shape
    scale = dt(1) / dt(size)
    gi = gw = gb = None
    if mask[1] or mask[2]:
        a = rstd[:, None]
        bias = (-rstd * mean)[:, None]
        parts_w, parts_b = [], []
        for s, e in _chunks(rows):
            accw = np.zeros(size, dt)
            accb = np.zeros(size, dt)
            for i in range(s, e):
                accw = _fp.fma(g[i], _fp.fma(a[i], x[i], bias[i]), accw)
                accb = accb + g[i]
            parts_w.append(accw)
            parts_b.append(accb)
        parts_w += [np.zeros(size, dt)] * (_THREADS - len(parts_w))
        parts_b += [np.zeros(size, dt)] * (_THREADS - len(parts_b))
        gw = np.add.accumulate(np.stack([np.zeros(size, dt)] + parts_w), axis=0)[-1] if mask[1] else None
        gb = np.add.accumulate(np.stack([np.zeros(size, dt)] + parts_b), axis=0)[-1] if mask[2] else None
    if mask[0]:
        if w is None:
            ds = _lane_dot(g, x)
            db = _lane_sum(g)
        else:
            ds = _lane_dot(g * x, np.broadcast_to(w, x.shape))
            db = _lane_dot(g, np.broadcast_to(w, x.shape))
        a = rstd
        bb = _fp.fma(db, mean, -ds) * a * a * a * scale
        c = _fp.fma(-bb, mean, -(db * a * scale))
        first = a[:, None] * g if w is None else a[:, None] * g * w
        gi = _fp.fma(bb[:, None], x, first) + c[:, None]
    return gi, gw, gb


def _stats_tensors(input, dims, eps):
    """(centred input, rstd) in Tensor ops, for the formulas that are differentiated again."""
    centred = input - input.mean(dims, keepdim=True)
    return centred, 1 / ((centred * centred).mean(dims, keepdim=True) + eps).sqrt()


class NativeLayerNormBackward0(Node):
    """derivatives.yaml's ``native_layer_norm_backward`` for (input, weight, bias)."""

    saves = ("input", "weight", "bias", "result1", "result2")
    keeps = ("normalized_shape",)
    eps = 1e-5
    supports_batched = False

    def backward(self, grad):
        mask = tuple(fn is not None for fn, _ in self._next_functions)
        input, weight = self.saved("input"), self.saved("weight")
        k = len(self.normalized_shape)
        if grad_on(grad, input, weight):
            return self._backward_tensors(grad, input, weight, k, mask)
        x = np.ascontiguousarray(input._data)
        dt = x.dtype.type
        rows = x.size // _numel(self.normalized_shape)
        x2 = x.reshape(rows, -1)
        g = np.ascontiguousarray(grad._data, dtype=dt).reshape(x2.shape)
        w = None if weight is None else weight._data.astype(dt, copy=False).reshape(-1)
        mean = self.saved("result1")._data.reshape(-1)
        rstd = self.saved("result2")._data.reshape(-1)
        gi, gw, gb = _backward_data(g, x2, mean, rstd, w, mask)
        shape = tuple(self.normalized_shape)
        return (None if gi is None else _make(gi.reshape(x.shape)),
                None if gw is None else _make(gw.reshape(shape)),
                None if gb is None else _make(gb.reshape(shape)))

    def _backward_tensors(self, grad, input, weight, k, mask):
        dims = tuple(range(input.dim() - k, input.dim()))
        lead = tuple(range(input.dim() - k))
        centred, rstd = _stats_tensors(input, dims, self.eps)
        xhat = centred * rstd
        gi = gw = gb = None
        if mask[0]:
            gx = grad * weight if weight is not None else grad
            gi = rstd * (gx - gx.mean(dims, keepdim=True) - xhat * (gx * xhat).mean(dims, keepdim=True))
        if mask[1]:
            gw = (grad * xhat).sum(lead) if lead else grad * xhat
        if mask[2]:
            gb = grad.sum(lead) if lead else grad
        return gi, gw, gb

    def jvp(self, tangents, inputs, result):
        """derivatives.yaml's ``layer_norm_jvp``: the normalized input's tangent through the row
        statistics, scaled by the weight, plus the weight's and bias's terms."""
        (x, w, _), (tx, tw, tb) = inputs, tangents
        k = len(self.normalized_shape)
        dims = tuple(range(x.dim() - k, x.dim()))
        centred, rstd = _stats_tensors(x, dims, self.eps)
        out = None
        if tx is not None:
            dx = (tx - tx.mean(dims, keepdim=True)) * rstd \
                - centred * rstd ** 3 * (centred * tx).mean(dims, keepdim=True)
            out = dx * w if w is not None else dx
        if tw is not None:
            term = centred * rstd * tw
            out = term if out is None else out + term
        if tb is not None:
            term = tb.expand(x.shape)
            out = term if out is None else out + term
        return out


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """``torch.native_layer_norm``: (output, mean, rstd), recording ``NativeLayerNormBackward0``."""
    shape = tuple(normalized_shape)
    x = np.ascontiguousarray(input._data)
    dt = x.dtype.type
    rows = x.size // _numel(shape) if _numel(shape) else 0
    x2 = x.reshape(rows, _numel(shape))
    w = None if weight is None else weight._data.astype(dt, copy=False).reshape(-1)
    b = None if bias is None else bias._data.astype(dt, copy=False).reshape(-1)
    y, mean, rstd = _forward_data(x2, w, b, eps)
    stat_shape = x.shape[:x.ndim - len(shape)] + (1,) * len(shape)
    out = _make(np.ascontiguousarray(y, dtype=dt).reshape(x.shape))
    mean_t, rstd_t = _make(mean.reshape(stat_shape)), _make(rstd.reshape(stat_shape))
    if grad_on(input, weight, bias):
        node = NativeLayerNormBackward0()
        node.normalized_shape, node.eps = shape, eps
        node.save(input=input, weight=weight, bias=bias, result1=mean_t, result2=rstd_t)
        record(out, node, (input, weight, bias))
    return out, mean_t, rstd_t


def _sizes(shape):
    return "[" + ", ".join(str(n) for n in shape) + "]"


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """Normalizes each sample over its trailing ``normalized_shape`` dims (mean 0, biased variance 1),
    then scales by ``weight`` and shifts by ``bias`` elementwise.

    Args:
        input (Tensor): ``(*, *normalized_shape)``.
        normalized_shape (int or list or torch.Size): the trailing dims to normalize over.
        weight (Tensor, optional): elementwise scale of shape ``normalized_shape``.
        bias (Tensor, optional): elementwise shift of shape ``normalized_shape``.
        eps (float, optional): added to the variance. Defaults to 1e-5.

    Returns:
        Tensor: the input's shape, ``grad_fn=<NativeLayerNormBackward0>``.

    Example::

        >>> F.layer_norm(torch.tensor([[1., 3.], [2., 2.]]), (2,))
        tensor([[-1.0000,  1.0000],
                [ 0.0000,  0.0000]])
    """
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           "element, but got normalized_shape = []")
    check_normalized_shape(input, shape, weight=weight, bias=bias)
    return native_layer_norm(input, shape, weight, bias, eps)[0]


def check_normalized_shape(input, shape, **affine):
    """PyTorch's checks (and messages) of layer and RMS norm: each affine tensor given (``weight=``,
    ``bias=``) has the normalized ``shape``, which the input's trailing dims must be."""
    for name, t in affine.items():
        if t is not None and tuple(t.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{_sizes(t.shape)} and normalized_shape = {_sizes(shape)}")
    dims = tuple(input.shape)
    if len(dims) < len(shape) or dims[len(dims) - len(shape):] != shape:
        raise RuntimeError(f"Given normalized_shape={_sizes(shape)}, expected input with shape [*, "
                           f"{', '.join(str(n) for n in shape)}], but got input of size{_sizes(dims)}")
