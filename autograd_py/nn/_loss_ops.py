"""Loss primitives that PyTorch gives a dedicated backward: mse, nll, binary cross entropy.

``reduction`` is an int here, as in ATen: 0 = 'none', 1 = 'mean', 2 = 'sum'. Backward formulas
follow PyTorch's (derivatives.yaml) and are written in Tensor ops so they can be differentiated.
"""
from .. import _glibc32, dtypes
from ..node import Node
from ..ops.base import _make, grad_on, np, record, result_np_dtype
from ..ops.comparison import clamp, where
from ..ops.pointwise import abs, exp, log, log1p, relu, sigmoid, sign
from ..ops.reduction import mean as _mean, sum as _sum
from ..ops.float_sum import trailing_sum
from ..ops.shape import unsqueeze

NONE, MEAN, SUM = 0, 1, 2
BCE_EPSILON = float(np.float32(1e-12))  # a float constant in ATen's kernel


def _sum_np(values):
    """A float32 sum accumulated in float64 and rounded once (where ``float_sum`` has no PyTorch order)."""
    wide = np.float64 if values.dtype.itemsize < 8 else values.dtype
    return np.asarray(np.sum(values, dtype=wide), dtype=values.dtype)


def _reduce_np(loss, reduction):
    """``apply_loss_reduction``: PyTorch's ``loss.sum()`` or ``loss.mean()`` (its sum, then a division
    in the loss's dtype), float32 added in PyTorch's own order, so ``loss.item()`` prints its digits."""
    if reduction == NONE:
        return loss
    if loss.ndim:
        ordered = trailing_sum(np.ascontiguousarray(loss), tuple(range(loss.ndim)), False, mean=reduction == MEAN)
        if ordered is not None:
            return ordered
    total = _sum_np(loss)
    return np.asarray(total / loss.dtype.type(loss.size), dtype=loss.dtype) if reduction == MEAN else total


def _cascade_sum(values, kept):
    """The sum of the ``kept`` entries of a 1-d array as ATen's nll_loss adds its picked losses (and
    weights), so a loss's last digits are PyTorch's.

    Its loop keeps eight levels of partial sums: entry ``b`` goes into level 0, and then every level
    ``j`` with ``b`` a multiple of ``16 ** (j + 1)`` passes its sum up one level. So the first entry
    is passed up alone, each level adds runs of 16 sums of the level below, and at the end the
    levels are added from the lowest up. An ignored target skips the passing too, so a batch with
    one is added by that very loop instead.
    """
    if not kept.all():
        return _cascade_loop(values, kept)
    levels = []
    incoming = values
    for _ in range(7):
        n = incoming.shape[0]
        full = (n - 1) // 16 if n else 0
        runs = incoming[1:1 + 16 * full].reshape(full, 16)
        # a run is added one value after another (accumulate is sequential, unlike np.sum)
        passed = np.concatenate([incoming[:1], np.add.accumulate(runs, axis=1)[:, -1]]) if full else incoming[:1]
        levels.append(_sequential(incoming[1 + 16 * full:]))
        incoming = passed
    levels.append(_sequential(incoming))
    total = values.dtype.type(0)
    for level in levels:
        total = total + level
    return total


def _cascade_loop(values, kept):
    zero = values.dtype.type(0)
    levels = [zero] * 8
    for b in range(values.shape[0]):
        if not kept[b]:
            continue
        levels[0] = levels[0] + values[b]
        for j in range(7):
            if b & (15 << (4 * j)):
                break
            levels[j + 1], levels[j] = levels[j + 1] + levels[j], zero
    total = zero
    for level in levels:
        total = total + level
    return total


def _sequential(values):
    zero = values.dtype.type(0)
    return np.add.accumulate(values)[-1] + zero if values.shape[0] else zero


def _scale(node, g, numel):
    return g / numel if node.reduction == MEAN else g


def _reduced(node, loss):
    """derivatives.yaml's ``apply_loss_reduction``: a loss's tangent is its unreduced tangent, reduced."""
    if node.reduction == NONE:
        return loss
    return _mean(loss) if node.reduction == MEAN else _sum(loss)


def _two_sided(tangents, part):
    """The unreduced tangent of a loss of ``input - target``: ``part`` of ``input``'s tangent minus
    ``part`` of ``target``'s (derivatives.yaml writes the second with the arguments swapped)."""
    ti, tt = tangents
    total = part(ti) if ti is not None else None
    if tt is not None:
        total = -part(tt) if total is None else total - part(tt)
    return total


def _type_name(np_dtype):
    return dtypes.from_numpy_dtype(np.dtype(np_dtype)).legacy_name[:-6]


# ---------------------------------------------------------------------------- mse
class MseLossBackward0(Node):
    saves = ("self", "target")
    keeps = ("reduction",)

    def backward(self, grad):
        x, t = self.saved("self"), self.saved("target")
        # ATen's mse_backward kernel: norm * (self - target) * grad, norm = 2 / numel for 'mean'
        g = (x - t) * (2.0 / self.numel if self.reduction == MEAN else 2.0) * grad
        gi = g if self._next_functions[0][0] is not None else None
        gt = -g if self._next_functions[1][0] is not None else None
        return gi, gt

    def jvp(self, tangents, inputs, result):
        x, t = inputs
        return _reduced(self, _two_sided(tangents, lambda d: (x - t) * 2 * d))


def mse_loss(input, target, reduction):
    """``(input - target) ** 2``, reduced; ``input`` and ``target`` have the same shape here."""
    dt = result_np_dtype(input, target)
    diff = input._data.astype(dt, copy=False) - target._data.astype(dt, copy=False)
    out = _make(_reduce_np(diff * diff, reduction))
    if grad_on(input, target):
        node = MseLossBackward0()
        node.reduction, node.numel = reduction, diff.size
        node.save(self=input, target=target)
        record(out, node, (input, target))
    return out


# ---------------------------------------------------------------------------- smooth l1
class SmoothL1LossBackward0(Node):
    def backward(self, grad):
        x, t = self.saved("self"), self.saved("target")
        d = x - t
        slope = where(abs(d) < self.beta, d / self.beta, sign(d))
        # ATen's vectorised kernel: norm * slope * grad, norm = 1 / numel for 'mean'
        g = slope * (1.0 / self.numel if self.reduction == MEAN else 1.0) * grad
        gi = g if self._next_functions[0][0] is not None else None
        gt = -g if self._next_functions[1][0] is not None else None
        return gi, gt

    def jvp(self, tangents, inputs, result):
        d = inputs[0] - inputs[1]
        slope = where(abs(d) < self.beta, d / self.beta, sign(d))
        return _reduced(self, _two_sided(tangents, lambda v: slope * v))


def smooth_l1_loss(input, target, reduction, beta):
    """``0.5 d**2 / beta`` where ``|d| < beta``, else ``|d| - 0.5 beta`` (``d = input - target``)."""
    dt = result_np_dtype(input, target)
    d = np.abs(input._data.astype(dt, copy=False) - target._data.astype(dt, copy=False))
    b = np.asarray(beta, dtype=dt)
    loss = np.where(d < b, np.asarray(0.5, dtype=dt) * d * d / b, d - np.asarray(0.5, dtype=dt) * b)
    out = _make(_reduce_np(loss.astype(dt, copy=False), reduction))
    if grad_on(input, target):
        node = SmoothL1LossBackward0()
        node.reduction, node.numel, node.beta = reduction, d.size, beta
        node.save(self=input, target=target)
        record(out, node, (input, target))
    return out


# ---------------------------------------------------------------------------- nll
class NllLossBackward0(Node):
    def backward(self, grad):
        coef = self.saved("coef")  # -w[t] at each sample's target (-1 without weights), 0 elsewhere
        if self.reduction == NONE and coef._data.ndim > 1:
            grad = unsqueeze(grad, 1)  # one loss per sample: spread it over the class dim
        elif self.total_weight is not None:
            grad = grad / self.total_weight  # ATen's order: -(grad / total_weight), then times w[t]
        return grad * coef

    def jvp(self, tangents, inputs, result):
        # The loss is linear in its input: the same loss of the tangent (derivatives.yaml).
        return nll_loss(tangents[0], self.target, self.weight, self.reduction, self.ignore_index, type(self))


class NllLoss2DBackward0(NllLossBackward0):
    pass


def nll_loss(input, target, weight, reduction, ignore_index, node_cls=NllLossBackward0):
    """Negative log likelihood of ``target`` classes in ``input`` of shape (N, C, ...) or (C,).

    Targets equal to ``ignore_index`` contribute nothing, not even to the mean's denominator.
    """
    x = input._data
    batchless = x.ndim == 1
    x2 = x[None] if batchless else x
    t2 = target._data.astype(np.int64).reshape((1,) if batchless else target._data.shape)
    n_classes = x2.shape[1]
    valid = t2 != ignore_index
    bad = valid & ((t2 < 0) | (t2 >= n_classes))
    if bad.any():
        raise IndexError(f"Target {int(t2[bad].reshape(-1)[0])} is out of bounds.")
    safe = np.where(valid, t2, 0)
    w = weight._data.astype(x.dtype) if weight is not None else np.ones(n_classes, dtype=x.dtype)
    per_sample_w = np.where(valid, w[safe], 0).astype(x.dtype)
    picked = np.take_along_axis(x2, safe[:, None], axis=1)[:, 0]
    losses = np.where(valid, -picked * per_sample_w, 0).astype(x.dtype, copy=False)  # an ignored target's loss is +0
    if reduction == NONE:
        value = losses.reshape(target._data.shape) if not batchless else losses.reshape(())
    else:
        total = _cascade_sum(losses.ravel(), valid.ravel())
        if reduction == MEAN:
            # without weights ATen counts the targets not ignored; with them it adds their weights
            total_weight = _cascade_sum(per_sample_w.ravel(), valid.ravel()) if weight is not None else x.dtype.type(valid.sum())
            with np.errstate(invalid="ignore", divide="ignore"):
                value = np.asarray(total / total_weight, dtype=x.dtype)
        else:
            value = np.asarray(total, dtype=x.dtype)
    out = _make(value)
    if grad_on(input):
        # d loss / d input: -w[t] (the backward divides by the total weight for 'mean') at each
        # target, 0 elsewhere. A total weight of 0 leaves ATen's 0 * -inf = nan at the targets.
        divide = reduction == MEAN and total_weight != 0
        scale = np.where(valid, np.nan, 0).astype(x.dtype) if reduction == MEAN and not divide else per_sample_w
        coef = np.zeros_like(x2)
        np.put_along_axis(coef, safe[:, None], np.where(valid, -scale, 0).astype(x.dtype)[:, None], axis=1)
        node = node_cls()
        node.reduction = reduction
        node.total_weight = total_weight if divide else None
        node.target, node.weight, node.ignore_index = target, weight, ignore_index  # for the tangent
        node.save(coef=_make(coef[0] if batchless else coef))
        record(out, node, (input,))
    return out


# ---------------------------------------------------------------------------- binary cross entropy
class BinaryCrossEntropyBackward0(Node):
    saves = ("self", "target", "weight")
    keeps = ("reduction",)

    def backward(self, grad):
        x, t, w = self.saved("self"), self.saved("target"), self.saved("weight")
        gi = gt = None
        if self._next_functions[0][0] is not None:
            gi = _scale(self, _bce_input_part(grad, x, t, w), self.numel)
        if self._next_functions[1][0] is not None:
            gt = _scale(self, _bce_target_part(grad, x, w), self.numel)
        return gi, gt

    def jvp(self, tangents, inputs, result):
        (x, t), w = inputs, self.weight
        ti, tt = tangents
        total = _bce_input_part(ti, x, t, w) if ti is not None else None
        if tt is not None:
            part = _bce_target_part(tt, x, w)
            total = part if total is None else total + part
        return _reduced(self, total)


def _bce_input_part(grad, x, t, w):
    part = grad * (x - t) / clamp((1 - x) * x, min=BCE_EPSILON)  # ATen's kernel's order
    return part * w if w is not None else part


def _bce_target_part(grad, x, w):
    part = -log(x / (1 - x)) * grad
    return part * w if w is not None else part


def binary_cross_entropy(input, target, weight, reduction):
    x, t = input._data, target._data
    if not np.all((x >= 0) & (x <= 1)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    with np.errstate(divide="ignore"):
        # PyTorch clamps each log at -100 so that a confident wrong answer costs 100, not inf; its
        # scalar kernel takes the C library's log(x) and log1p(-x): for float32 glibc's logf and
        # log1pf, neither correctly rounded (_glibc32)
        if x.dtype == np.float32:
            log_x, log_1mx = np.maximum(_glibc32.logf(x), np.float32(-100)), np.maximum(_glibc32.log1pf(-x), np.float32(-100))
        else:
            log_x, log_1mx = np.maximum(np.log(x), -100), np.maximum(np.log1p(-x), -100)
    loss = ((t - 1) * log_1mx - t * log_x).astype(x.dtype, copy=False)
    if weight is not None:
        loss = loss * weight._data
    out = _make(_reduce_np(loss, reduction))
    if grad_on(input, target):
        node = BinaryCrossEntropyBackward0()
        node.reduction, node.numel, node.weight = reduction, x.size, weight
        node.save(self=input, target=target, weight=weight)
        record(out, node, (input, target))
    return out


def _log_sigmoid(x):
    return -(log1p(exp(-abs(x))) + relu(-x))


class BinaryCrossEntropyWithLogitsBackward0(Node):
    def backward(self, grad):
        x, t = self.saved("self"), self.saved("target")
        w, pw = self.saved("weight"), self.saved("pos_weight")
        gi = gt = None
        if self._next_functions[0][0] is not None:
            gi = _scale(self, _logits_input_part(grad, x, t, w, pw), self.numel)
        if self._next_functions[1][0] is not None:
            gt = _scale(self, _logits_target_part(grad, x, w, pw), self.numel)
        return gi, gt

    def jvp(self, tangents, inputs, result):
        (x, t), (w, pw) = inputs, self.weights
        ti, tt = tangents
        total = _logits_input_part(ti, x, t, w, pw) if ti is not None else None
        if tt is not None:
            part = _logits_target_part(tt, x, w, pw)
            total = part if total is None else total + part
        return _reduced(self, total)


def _logits_input_part(grad, x, t, w, pw):
    if pw is not None:
        pt = pw * t
        part = ((pt + 1 - t) * sigmoid(x) - pt) * grad
    else:
        part = (sigmoid(x) - t) * grad
    return part * w if w is not None else part


def _logits_target_part(grad, x, w, pw):
    if pw is not None:
        part = (_log_sigmoid(-x) - _log_sigmoid(x) * pw) * grad
    else:
        part = -x * grad
    return part * w if w is not None else part


def binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction):
    if target._data.dtype.kind in "biu":
        raise RuntimeError(f"result type {_type_name(input._data.dtype)} can't be cast to the desired "
                           f"output type {_type_name(target._data.dtype)}")
    dt = result_np_dtype(input, target)
    x, t = input._data.astype(dt, copy=False), target._data.astype(dt, copy=False)
    # at::log_sigmoid(x) = min(x, 0) - log1p(exp(-|x|)), its kernel's roundings
    from ._activation_smooth import log_sigmoid_parts
    log_sig = log_sigmoid_parts(x)[0]
    if pos_weight is not None:
        log_sig = log_sig * ((pos_weight._data - 1) * t + 1)
    loss = (1 - t) * x - log_sig
    if weight is not None:
        loss = loss * weight._data
    out = _make(_reduce_np(np.asarray(loss, dtype=np.result_type(loss.dtype, dt)), reduction))
    if grad_on(input, target):
        node = BinaryCrossEntropyWithLogitsBackward0()
        node.reduction, node.numel, node.weights = reduction, x.size, (weight, pos_weight)
        node.save(self=input, target=target, weight=weight, pos_weight=pos_weight)
        record(out, node, (input, target))
    return out
