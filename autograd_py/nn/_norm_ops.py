"""``native_batch_norm`` (``grad_fn=<NativeBatchNormBackward0>``) in PyTorch's CPU float arithmetic.

The statistics, running averages, output and gradients are computed in the order of ATen's
``batch_norm_kernel.cpp`` and ``Normalization.cpp``, so float32 results agree with PyTorch's to
the last bit: a 2-D input ``(N, C)`` takes its channels-last kernels (rows split between the
threads, each thread's float sums added in double), a larger one its contiguous kernels (double
sums per channel, float ``vec::reduce_all`` per plane in the backward).

With ``create_graph=True`` the backward is written in Tensor ops instead (mean and variance
recomputed from the input), so gradients of any order follow.
"""
import numpy as np

from .. import _fp
from ..node import Node
from ..ops.base import _make, grad_on, record
from ..ops.float_sum import reduce_all
from ..saved_tensor import bump_version

# ATen splits a channels-last reduction's rows between its threads (at::parallel_for, grain 1);
# torch.get_num_threads() was 2 where the goldens were recorded.
_THREADS = 2
# vec::reduce_all's lanes: 32 bytes (8 floats, 4 doubles), measured: these kernels run the AVX2 build
_VECTOR_BYTES = 32
_F64 = np.float64
# With no more rows than threads, up to 16 channels (or past 2048) are reduced in float tiles
_TILE, _TILE_MAX = 16, 2048


def _chunks(n):
    """The row ranges at::parallel_for(0, n, 1) gives each thread."""
    threads = min(_THREADS, n)
    if threads <= 1:
        return [(0, n)]
    size = -(-n // threads)
    return [(b, min(b + size, n)) for b in range(0, n, size)]


def _fma_sum(terms_a, terms_b):
    """``acc = fma(a[i], b[i], acc)`` down axis 0 from 0: GCC contracts the kernels' ``acc + a * b``."""
    acc = terms_a[0] * terms_b[0]
    for i in range(1, terms_a.shape[0]):
        acc = _fp.fma(terms_a[i], terms_b[i], acc)
    return acc


def _seq_sum(a, dtype=None):
    """``0 + a[0] + a[1] + ...`` down axis 0, one after another (``dtype``: the accumulator's)."""
    if dtype is not None:
        a = a.astype(dtype)
    return np.add.accumulate(a, axis=0)[-1]


def _lane_sum(a):
    """``vec::reduce_all`` of each row of ``a`` (last axis) in ``a``'s dtype, as the AVX2 batch norm
    kernels run it (``float_sum.reduce_all``)."""
    return reduce_all(a, _VECTOR_BYTES)


def _lane_dot(a, b):
    """``vec::map2_reduce_all`` of ``a * b`` per row: ``_lane_sum`` of the products, except that the
    tail's products are fused into the lanes' sums (GCC contracts that one ``acc + a * b``; measured)."""
    n, lanes = a.shape[-1], _VECTOR_BYTES // a.dtype.itemsize
    full = n // lanes * lanes
    if n < lanes or full == n:
        return _lane_sum(a * b)
    head = a[..., :full] * b[..., :full]
    acc = np.add.accumulate(head.reshape(a.shape[:-1] + (n // lanes, lanes)), axis=-2)[..., -1, :]
    acc[..., :n - full] = _fp.fma(a[..., full:], b[..., full:], acc[..., :n - full])
    while lanes > 1:
        lanes //= 2
        acc = acc[..., :lanes] + acc[..., lanes:]
    return acc[..., 0]


def _vector_fnm(d, k, rest):
    """``rest - d * k`` along the last axis: fused (one rounding) in the kernels' full 8-lane vectors,
    two roundings in the tail past them (measured: GCC contracts the channels-last main loop's only;
    the contiguous kernel's ``vec::map2`` fuses both)."""
    n = d.shape[-1]
    full = n - n % (_VECTOR_BYTES // d.dtype.itemsize)
    out = rest - d * k
    if full:
        k = np.broadcast_to(k, d.shape)
        out[..., :full] = _fp.fma(-d[..., :full], k[..., :full], rest[..., :full])
    return out


def _channel_stats(x):
    """(mean, var_sum) per channel of the C-contiguous input ``x`` (N, C, ...), ATen's collect_stats."""
    dt = x.dtype.type
    n, c = x.shape[0], x.shape[1]
    if x.ndim == 2 or x.size == n * c:  # image size 1: the channels-last kernel over rows
        rows = x.reshape(n, c)
        if n > _THREADS:
            parts = [_seq_sum(rows[b:e]) for b, e in _chunks(n)]
            mean = (_seq_sum(np.stack(parts), _F64) / n).astype(dt)
            parts = [_fma_sum(rows[b:e] - mean, rows[b:e] - mean) for b, e in _chunks(n)]
            return mean, _seq_sum(np.stack(parts), _F64).astype(dt)
        if c <= _TILE or c > _TILE_MAX:
            # a few rows: ATen sums tiles of 16 channels down the rows in float vectors, from zero
            mean = _seq_sum(rows) / dt(n)
            return mean, _fma_sum(rows - mean, rows - mean)
        mean = (_seq_sum(rows, _F64) / n).astype(dt)
        return mean, _seq_sum((rows - mean) * (rows - mean), _F64).astype(dt)
    planes = np.moveaxis(x.reshape(n, c, -1), 1, 0).reshape(c, -1)  # channel-major, batch then image
    count = planes.shape[1]
    mean = (_seq_sum(planes.T, _F64) / count).astype(dt)
    centred = planes - mean[:, None]
    return mean, _seq_sum((centred * centred).T, _F64).astype(dt)


def _update_stats(x, running_mean, running_var, momentum, eps):
    """(save_mean, save_invstd), updating the running averages in place as ATen does (in double,
    with the unbiased variance ``var_sum / (n - 1)``; the saved invstd uses the biased one)."""
    dt = x.dtype.type
    n = x.size // x.shape[1]
    mean, var_sum = _channel_stats(x)
    var = (var_sum / dt(n)).astype(_F64)
    with np.errstate(divide="ignore", invalid="ignore"):
        invstd = np.where((var != 0) | (eps != 0), 1.0 / np.sqrt(var + eps), 0.0).astype(dt)
        unbiased = var_sum / dt(n - 1)
    # float arithmetic (measured against torch 2.13: the mean's update is not contracted, the variance's is)
    keep, new = dt(1) - dt(momentum), dt(momentum)
    if running_mean is not None:
        rm = running_mean._data
        rm[...] = new * mean + keep * rm.astype(dt, copy=False)
        bump_version(running_mean)
    if running_var is not None:
        rv = running_var._data
        rv[...] = _fp.fma(np.full_like(unbiased, new), unbiased, keep * rv.astype(dt, copy=False))
        bump_version(running_var)
    return mean, invstd


def _per_channel(v, ndim):
    return v.reshape((1, -1) + (1,) * (ndim - 2))


def _eval_invstd_float(running_var, eps, dt):
    # the forward kernel computes it in the input's float type (opmath_t), the backward in double
    return (dt(1) / np.sqrt(running_var + dt(eps))).astype(dt)


def _transform(x, w, b, mean, invstd):
    """``x * alpha + beta`` with ``alpha = invstd * w`` and ``beta = b - mean * alpha`` per channel."""
    # GCC contracts both the kernel's ``bias - mean * alpha`` and ``x * alpha + beta`` into fmas
    alpha = invstd * w if w is not None else invstd
    beta = _fp.fma(-mean, alpha, b if b is not None else np.zeros_like(alpha))
    nd = x.ndim
    return _fp.fma(x, _per_channel(alpha, nd), _per_channel(beta, nd))


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """``torch.native_batch_norm``: (output, save_mean, save_invstd), recording
    ``NativeBatchNormBackward0`` over (input, weight, bias)."""
    x = np.ascontiguousarray(input._data)
    dt = x.dtype.type
    w = None if weight is None else weight._data.astype(dt, copy=False)
    b = None if bias is None else bias._data.astype(dt, copy=False)
    if training:
        mean, invstd = _update_stats(x, running_mean, running_var, momentum, eps)
        out = _transform(x, w, b, mean, invstd)
        save_mean, save_invstd = _make(mean), _make(invstd)
    else:
        rm, rv = running_mean._data.astype(dt, copy=False), running_var._data.astype(dt, copy=False)
        out = _transform(x, w, b, rm, _eval_invstd_float(rv, eps, dt))
        save_mean, save_invstd = _make(np.empty(0, dt)), _make(np.empty(0, dt))
    out = _make(np.ascontiguousarray(out, dtype=dt))
    if grad_on(input, weight, bias):
        node = NativeBatchNormBackward0()
        node.eps, node.training = eps, bool(training)
        node.save(input=input, weight=weight, running_mean=running_mean, running_var=running_var,
                  result1=save_mean, result2=save_invstd)
        record(out, node, (input, weight, bias))
    return out, save_mean, save_invstd


def _backward_data(g, x, w, mean, invstd, training, mask):
    """(grad_input, grad_weight, grad_bias) as NumPy data in ATen's CPU order; ``mean``/``invstd``
    are the saved batch statistics (training) or the running mean and double-precision invstd."""
    dt = x.dtype.type
    n, c = x.shape[0], x.shape[1]
    count = x.size // c
    wv = w if w is not None else np.ones(c, dt)
    if x.ndim == 2 or x.size == n * c:
        rows, grows = x.reshape(n, c), g.reshape(n, c)
        sums = [(_seq_sum(grows[s:e]), _fma_sum(rows[s:e] - mean, grows[s:e])) for s, e in _chunks(n)]
        total = _seq_sum(np.stack([s for s, _ in sums]), _F64).astype(dt)
        dotp = _seq_sum(np.stack([d for _, d in sums]), _F64).astype(dt)
        gi = None
        if mask[0]:
            if training:
                k = dotp * invstd * invstd / dt(count)
                gi = _vector_fnm(rows - mean, k, grows - total / dt(count)) * invstd * wv
            else:
                gi = grows * invstd * wv
            gi = gi.reshape(x.shape)
        gw = dotp * invstd if mask[1] else None
        return gi, gw, (total if mask[2] else None)
    planes_g = g.reshape(n, c, -1)
    planes_x = x.reshape(n, c, -1)
    mean_b = mean[None, :, None]
    total = _seq_sum(_lane_sum(planes_g), _F64)
    dotp = _seq_sum(_lane_dot(planes_x - mean_b, planes_g), _F64)
    gi = None
    if mask[0]:
        inv_b, w_b = invstd[None, :, None], wv[None, :, None]
        if training:
            k = (dotp.astype(dt) * invstd * invstd / dt(count))[None, :, None]
            grad_mean = (total / count).astype(dt)[None, :, None]
            gi = _fp.fma(-(planes_x - mean_b), k, planes_g - grad_mean) * inv_b * w_b
        else:
            gi = planes_g * inv_b * w_b
        gi = gi.reshape(x.shape)
    gw = (dotp * invstd.astype(_F64)).astype(dt) if mask[1] else None
    return gi, gw, (total.astype(dt) if mask[2] else None)


def _backward_tensors(grad, input, weight, running_mean, running_var, training, eps, mask):
    """The same gradients in Tensor ops, recorded for ``create_graph=True``: the batch mean and
    variance are recomputed from ``input`` so that their dependence on it is differentiated too."""
    nd = input.dim()
    dims = (0,) + tuple(range(2, nd))
    shape = (1, -1) + (1,) * (nd - 2)
    w = weight.reshape(shape) if weight is not None else None
    if training:
        mu = input.mean(dims, keepdim=True)
        centred = input - mu
        invstd = 1 / ((centred * centred).mean(dims, keepdim=True) + eps).sqrt()
    else:
        centred = input - running_mean.reshape(shape)
        invstd = 1 / (running_var.reshape(shape) + eps).sqrt()
    xhat = centred * invstd
    gi = gw = gb = None
    if mask[0]:
        gx = grad * w if w is not None else grad
        if training:
            gi = invstd * (gx - gx.mean(dims, keepdim=True) - xhat * (gx * xhat).mean(dims, keepdim=True))
        else:
            gi = gx * invstd
    if mask[1]:
        gw = (grad * xhat).sum(dims)
    if mask[2]:
        gb = grad.sum(dims)
    return gi, gw, gb


class NativeBatchNormBackward0(Node):
    """derivatives.yaml's ``native_batch_norm_backward`` for (input, weight, bias)."""

    saves = ("input", "weight", "running_mean", "running_var", "result1", "result2")
    keeps = ("eps", "training")
    supports_batched = False

    def backward(self, grad):
        mask = tuple(fn is not None for fn, _ in self._next_functions)
        input, weight = self.saved("input"), self.saved("weight")
        rm, rv = self.saved("running_mean"), self.saved("running_var")
        if grad_on(grad, input, weight):
            return _backward_tensors(grad, input, weight, rm, rv, self.training, self.eps, mask)
        x = np.ascontiguousarray(input._data)
        dt = x.dtype.type
        if self.training:
            mean, invstd = self.saved("result1")._data, self.saved("result2")._data
        else:
            mean = rm._data.astype(dt, copy=False)
            invstd = (1.0 / np.sqrt(rv._data.astype(_F64) + self.eps)).astype(dt)
        w = None if weight is None else weight._data.astype(dt, copy=False)
        g = np.ascontiguousarray(grad._data, dtype=dt)
        outs = _backward_data(g, x, w, mean, invstd, self.training, mask)
        return tuple(None if o is None else _make(np.ascontiguousarray(o, dtype=dt)) for o in outs)

    def jvp(self, tangents, inputs, result):
        """derivatives.yaml's ``batch_norm_jvp``: the normalized input's tangent (through the batch
        mean and variance in training), scaled by the weight, plus the weight's and bias's terms."""
        (x, w, _), (tx, tw, tb) = inputs, tangents
        nd = x.dim()
        dims = (0,) + tuple(range(2, nd))
        shape = (1, -1) + (1,) * (nd - 2)
        if self.training:
            centred = x - x.mean(dims, keepdim=True)
            invstd = 1 / ((centred * centred).mean(dims, keepdim=True) + self.eps).sqrt()
        else:
            centred = x - self.saved("running_mean").reshape(shape)
            invstd = 1 / (self.saved("running_var").reshape(shape) + self.eps).sqrt()
        out = None
        if tx is not None:
            if self.training:
                # d(invstd) = -invstd**3 * mean(centred * tx) (the variance's tangent over two)
                dx = (tx - tx.mean(dims, keepdim=True)) * invstd \
                    - centred * invstd ** 3 * (centred * tx).mean(dims, keepdim=True)
            else:
                dx = tx * invstd
            out = dx * w.reshape(shape) if w is not None else dx
        if tw is not None:
            term = centred * invstd * tw.reshape(shape)
            out = term if out is None else out + term
        if tb is not None:
            term = tb.reshape(shape).expand(x.shape)
            out = term if out is None else out + term
        return out


def _verify_batch_size(size):
    prod = size[0]
    for n in size[2:]:
        prod *= n
    if prod == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def _check_features(name, expected, t):
    if t is not None and t.numel() != expected:
        raise RuntimeError(f"{name} should contain {expected} elements not {t.numel()}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """Normalizes each channel (dim 1) of ``input`` by its batch statistics (``training``) or by
    ``running_mean``/``running_var``, then scales by ``weight`` and shifts by ``bias``.

    In training, ``running_mean``/``running_var`` (if given) are updated in place:
    ``running = (1 - momentum) * running + momentum * batch_stat``, with the unbiased batch variance.

    Args:
        input (Tensor): ``(N, C)`` or ``(N, C, ...)``.
        running_mean (Tensor or None): shape ``(C)``.
        running_var (Tensor or None): shape ``(C)``.
        weight (Tensor, optional): scale, shape ``(C)``.
        bias (Tensor, optional): shift, shape ``(C)``.
        training (bool, optional): use (and track) the batch statistics. Defaults to ``False``.
        momentum (float, optional): weight of the new statistics. Defaults to 0.1.
        eps (float, optional): added to the variance. Defaults to 1e-5.

    Returns:
        Tensor: the input's shape, ``grad_fn=<NativeBatchNormBackward0>``.

    Example::

        >>> F.batch_norm(torch.tensor([[1., 2.], [3., 6.]]), None, None, training=True)
        tensor([[-1.0000, -1.0000],
                [ 1.0000,  1.0000]])
    """
    if training:
        _verify_batch_size(input.size())
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    elif eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    features = input.shape[1] if input.dim() > 1 else 1
    _check_features("running_mean", features, running_mean)
    if running_mean is None and not training:
        raise RuntimeError("running_mean must be defined in evaluation mode")
    _check_features("running_var", features, running_var)
    if running_var is None and not training:
        raise RuntimeError("running_var must be defined in evaluation mode")
    _check_features("weight", features, weight)
    _check_features("bias", features, bias)
    return native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)[0]
