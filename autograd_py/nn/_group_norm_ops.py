"""``native_group_norm`` (``grad_fn=<NativeGroupNormBackward0>``): each sample's channels split into
``num_groups`` groups, each group normalized by its own mean and biased variance, then a per-channel
scale and shift.

The statistics come from ATen's ``RowwiseMoments`` over each group's values (``_row_moments``, as
layer norm's), the output from ``scale * x + bias`` per channel with one fused multiply-add. The
backward follows ``group_norm_kernel.cpp``'s terms (per-channel sums, then ``c1 * dy + c2 * x + c3``)
in float; its input and weight gradients match PyTorch's in about half of random shapes and
otherwise differ in the last bits (the bias gradient and the output are exact). With
``create_graph=True`` the backward is written in Tensor ops.
"""
import numpy as np

from .. import _fp
from ..node import Node
from ..ops.base import _make, grad_on, record
from ._layer_norm_ops import _row_moments
from ._norm_ops import _lane_sum


def _forward_data(x, n, c, hw, groups, w, b, eps):
    dt = x.dtype.type
    d = c // groups
    rows = x.reshape(n * groups, d * hw)
    mean, var = _row_moments(rows)
    # in double, eps too (measured)
    rstd = (1.0 / np.sqrt(np.maximum(var, dt(0)).astype(np.float64) + eps)).astype(dt)
    if w is None and b is None:
        y = (rows - mean[:, None]) * rstd[:, None]
        return y.reshape(x.shape), mean, rstd
    planes = x.reshape(n, groups, d, hw)
    gamma = (w if w is not None else np.ones(c, dt)).reshape(1, groups, d, 1)
    beta = (b if b is not None else np.zeros(c, dt)).reshape(1, groups, d, 1)
    scale = rstd.reshape(n, groups, 1, 1) * gamma
    shift = _fp.fma(-scale, mean.reshape(n, groups, 1, 1), np.broadcast_to(beta, scale.shape))
    return _fp.fma(scale, planes, shift).reshape(x.shape), mean, rstd


def _backward_data(g, x, mean, rstd, w, n, c, hw, groups, mask):
    dt = x.dtype.type
    d = c // groups
    s = dt(1) / dt(d * hw)
    planes_g, planes_x = g.reshape(n, c, hw), x.reshape(n, c, hw)
    # per channel: 8-lane vector sums folded in halves (db's order measured: dbeta is exact)
    ds = _lane_sum(planes_g * planes_x)  # (n, c)
    db = _lane_sum(planes_g)
    gamma = w if w is not None else np.ones(c, dt)
    mean_g, rstd_g = mean.reshape(n, groups), rstd.reshape(n, groups)
    gi = gw = gb = None
    if mask[0]:
        ds_val = np.add.accumulate((ds * gamma).reshape(n, groups, d), axis=-1)[..., -1]
        db_val = np.add.accumulate((db * gamma).reshape(n, groups, d), axis=-1)[..., -1]
        # the kernel's multiply-adds fused where GCC fuses them (the best of the orders tried)
        c2 = _fp.fma(db_val, mean_g, -ds_val) * rstd_g * rstd_g * rstd_g * s
        c3 = _fp.fma(-db_val * rstd_g, np.full_like(rstd_g, s), -c2 * mean_g)
        shape = (n, groups, d, hw)
        c1 = np.broadcast_to((rstd_g[:, :, None] * gamma.reshape(groups, d))[..., None], shape)
        x4 = x.reshape(shape)
        gi = (_fp.fma(c1, g.reshape(shape), np.broadcast_to(c2[:, :, None, None], shape) * x4)
              + c3[:, :, None, None]).reshape(x.shape)
    if mask[1]:
        db3 = db.reshape(n, groups, d)
        terms = _fp.fma(-db3, np.broadcast_to(mean_g[:, :, None], db3.shape), ds.reshape(n, groups, d)) \
            * rstd_g[:, :, None]
        gw = np.add.accumulate(np.concatenate([np.zeros((1, c), dt), terms.reshape(n, c)]), axis=0)[-1]
    if mask[2]:
        gb = np.add.accumulate(np.concatenate([np.zeros((1, c), dt), db]), axis=0)[-1]
    return gi, gw, gb


class NativeGroupNormBackward0(Node):
    """derivatives.yaml's ``native_group_norm_backward`` for (input, weight, bias)."""

    saves = ("input", "weight", "result1", "result2")
    keeps = ("N", "C", "HxW", "group", "eps")
    supports_batched = False

    def backward(self, grad):
        mask = tuple(fn is not None for fn, _ in self._next_functions)
        input, weight = self.saved("input"), self.saved("weight")
        if grad_on(grad, input, weight):
            return self._backward_tensors(grad, input, weight, mask)
        x = np.ascontiguousarray(input._data)
        dt = x.dtype.type
        w = None if weight is None else weight._data.astype(dt, copy=False)
        g = np.ascontiguousarray(grad._data, dtype=dt)
        mean = self.saved("result1")._data.reshape(-1)
        rstd = self.saved("result2")._data.reshape(-1)
        outs = _backward_data(g, x, mean, rstd, w, self.N, self.C, self.HxW, self.group, mask)
        return tuple(None if o is None else _make(np.ascontiguousarray(o, dtype=dt)) for o in outs)

    def _backward_tensors(self, grad, input, weight, mask):
        n, groups = self.N, self.group
        shape = (1, -1) + (1,) * (input.dim() - 2)
        grouped = input.reshape(n, groups, -1)
        centred = grouped - grouped.mean(-1, keepdim=True)
        rstd = 1 / ((centred * centred).mean(-1, keepdim=True) + self.eps).sqrt()
        xhat = centred * rstd
        gi = gw = gb = None
        dims = (0,) + tuple(range(2, input.dim()))
        if mask[0]:
            gx = (grad * weight.reshape(shape) if weight is not None else grad).reshape(n, groups, -1)
            gi = (rstd * (gx - gx.mean(-1, keepdim=True) - xhat * (gx * xhat).mean(-1, keepdim=True))
                  ).reshape(input.shape)
        if mask[1]:
            gw = (grad * xhat.reshape(input.shape)).sum(dims)
        if mask[2]:
            gb = grad.sum(dims)
        return gi, gw, gb


    def jvp(self, tangents, inputs, result):
        """The normalized input's tangent through each group's statistics, scaled per channel, plus
        the weight's and bias's terms."""
        (x, w, _), (tx, tw, tb) = inputs, tangents
        n, groups = self.N, self.group
        shape = (1, -1) + (1,) * (x.dim() - 2)
        grouped = x.reshape(n, groups, -1)
        centred = grouped - grouped.mean(-1, keepdim=True)
        rstd = 1 / ((centred * centred).mean(-1, keepdim=True) + self.eps).sqrt()
        out = None
        if tx is not None:
            t = tx.reshape(n, groups, -1)
            dx = ((t - t.mean(-1, keepdim=True)) * rstd
                  - centred * rstd ** 3 * (centred * t).mean(-1, keepdim=True)).reshape(x.shape)
            out = dx * w.reshape(shape) if w is not None else dx
        if tw is not None:
            term = (centred * rstd).reshape(x.shape) * tw.reshape(shape)
            out = term if out is None else out + term
        if tb is not None:
            term = tb.reshape(shape).expand(x.shape)
            out = term if out is None else out + term
        return out


def native_group_norm(input, weight, bias, n, c, hw, groups, eps):
    x = np.ascontiguousarray(input._data)
    dt = x.dtype.type
    w = None if weight is None else weight._data.astype(dt, copy=False)
    b = None if bias is None else bias._data.astype(dt, copy=False)
    y, mean, rstd = _forward_data(x, n, c, hw, groups, w, b, eps)
    out = _make(np.ascontiguousarray(y, dtype=dt))
    mean_t, rstd_t = _make(mean.reshape(n, groups)), _make(rstd.reshape(n, groups))
    if grad_on(input, weight, bias):
        node = NativeGroupNormBackward0()
        node.N, node.C, node.HxW, node.group, node.eps = n, c, hw, groups, eps
        node.save(input=input, weight=weight, result1=mean_t, result2=rstd_t)
        record(out, node, (input, weight, bias))
    return out, mean_t, rstd_t


def _sizes(shape):
    return "[" + ", ".join(str(k) for k in shape) + "]"


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Group normalization: the channels (dim 1) of each sample in ``num_groups`` groups, each group
    normalized by its mean and biased variance, then scaled by ``weight`` and shifted by ``bias``
    per channel.

    Args:
        input (Tensor): ``(N, C, *)``, ``C`` divisible by ``num_groups``.
        num_groups (int): the number of groups.
        weight (Tensor, optional): per-channel scale, shape ``(C)``.
        bias (Tensor, optional): per-channel shift, shape ``(C)``.
        eps (float, optional): added to the variance. Defaults to 1e-5.

    Returns:
        Tensor: the input's shape, ``grad_fn=<NativeGroupNormBackward0>``.

    Example::

        >>> F.group_norm(torch.tensor([[1., 3., 2., 6.]]), 2)
        tensor([[-1.0000,  1.0000, -1.0000,  1.0000]])
    """
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    size = list(input.shape)
    prod = size[0] * size[1] // num_groups  # _verify_batch_size skips the groups dim
    for k in size[2:]:
        prod *= k
    if prod == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"{[size[0] * size[1] // num_groups, num_groups] + size[2:]}")
    n, c = size[0], size[1]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {_sizes(size)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {_sizes(t.shape)} and input of shape {_sizes(size)}")
    hw = 1
    for k in size[2:]:
        hw *= k
    return native_group_norm(input, weight, bias, n, c, hw, num_groups, eps)[0]
