"""The loss functions of ``torch.nn.functional``: argument checks and reductions around ``_loss_ops``."""
import warnings

from .. import dtypes
from ..ops import pointwise as _P
from ..ops import reduction as _R
from ..ops import softmax as _SM
from ..ops.base import Tensor, np
from ..ops.advanced_indexing import masked_fill
from ..ops.shape import broadcast_to, reshape
from . import _loss_ops as _L

_REDUCTIONS = {"none": _L.NONE, "mean": _L.MEAN, "sum": _L.SUM}


def get_enum(reduction):
    """Maps 'none'/'mean'/'sum' to 0/1/2, as ``torch.nn._reduction.get_enum`` does."""
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
                      stacklevel=3)
        return _L.MEAN
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _REDUCTIONS[reduction]


def legacy_get_string(size_average, reduce, emit_warning=True):
    """The reduction that the deprecated ``size_average``/``reduce`` flags stand for."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else "sum" if reduce else "none"
    if emit_warning:
        warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.",
                      stacklevel=3)
    return ret


def _reduction(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        reduction = legacy_get_string(size_average, reduce)
    return get_enum(reduction)


def _expect_tensor(value, fn, name, position):
    """PyTorch's argument parser's TypeError for a non-Tensor argument (``functional`` uses it too)."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be Tensor, not "
                        f"{type(value).__name__}")


def _not_differentiable(fn, name, value):
    if value is not None and value.requires_grad:
        raise RuntimeError(f"The function '{fn}' is not differentiable with respect to argument '{name}'. "
                           "This input cannot have requires_grad True.")


def _warn_broadcast(input, target):
    if target.size() != input.size():
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size "
                      f"({input.size()}). This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", stacklevel=3)


def _broadcast(input, target):
    shape = tuple(np.broadcast_shapes(input._data.shape, target._data.shape)) if input.shape != target.shape \
        else input._data.shape
    return (input if input._data.shape == shape else broadcast_to(input, shape),
            target if target._data.shape == shape else broadcast_to(target, shape))


def _broadcast_shapes_or_raise(input, target):
    try:
        np.broadcast_shapes(input._data.shape, target._data.shape)
    except ValueError:
        a, b = input._data.shape, target._data.shape
        for i in range(1, min(len(a), len(b)) + 1):
            if a[-i] != b[-i] and a[-i] != 1 and b[-i] != 1:
                dim = max(len(a), len(b)) - i
                raise RuntimeError(f"The size of tensor a ({a[-i]}) must match the size of tensor b ({b[-i]}) "
                                   f"at non-singleton dimension {dim}") from None
        raise


# ---------------------------------------------------------------------------- regression losses
def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Mean squared error ``(input - target) ** 2``, reduced (``grad_fn=<MseLossBackward0>``).

    Args:
        input (Tensor): predictions.
        target (Tensor): targets; a different shape broadcasts, with PyTorch's warning.
        reduction (str, optional): ``'none'``, ``'mean'`` (default) or ``'sum'``.

    Example::

        >>> F.mse_loss(torch.tensor([1., 2.]), torch.tensor([0., 0.]))
        tensor(2.5000)
    """
    _warn_broadcast(input, target)
    enum = _reduction(size_average, reduce, reduction)
    _broadcast_shapes_or_raise(input, target)
    input, target = _broadcast(input, target)
    return _L.mse_loss(input, target, enum)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """Mean absolute error ``|input - target|``, reduced; composed as PyTorch composes it
    (``MeanBackward0 -> AbsBackward0 -> SubBackward0``)."""
    _warn_broadcast(input, target)
    enum = _reduction(size_average, reduce, reduction)
    _broadcast_shapes_or_raise(input, target)
    input, target = _broadcast(input, target)
    loss = _P.abs(_P.sub(input, target))
    return loss if enum == _L.NONE else _R.mean(loss) if enum == _L.MEAN else _R.sum(loss)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Squared error below ``beta``, absolute error above: ``0.5 d**2 / beta`` where ``|d| < beta``,
    else ``|d| - 0.5 beta`` (``grad_fn=<SmoothL1LossBackward0>``; ``beta=0`` is ``l1_loss``)."""
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0:
        return l1_loss(input, target, size_average, reduce, reduction)
    _warn_broadcast(input, target)
    enum = _reduction(size_average, reduce, reduction)
    _broadcast_shapes_or_raise(input, target)
    input, target = _broadcast(input, target)
    return _L.smooth_l1_loss(input, target, enum, beta)


# ---------------------------------------------------------------------------- classification losses
def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """Negative log likelihood: ``-input[n, target[n]]`` (times ``weight[target[n]]``), reduced.

    ``input`` holds log-probabilities of shape ``(N, C)``, ``(C)`` or ``(N, C, d1, ...)``;
    ``target`` holds class indices (int64) of shape ``(N)``, ``()`` or ``(N, d1, ...)``. The
    'mean' reduction divides by the summed weights of the non-ignored targets.

    Example::

        >>> F.nll_loss(torch.tensor([[-1., -2.], [-3., -4.]]), torch.tensor([0, 1]))
        tensor(2.5000)
    """
    enum = _reduction(size_average, reduce, reduction)
    _expect_tensor(input, "nll_loss_nd", "input", 1)
    _expect_tensor(target, "nll_loss_nd", "target", 2)
    return _nll_loss_nd(input, target, weight, enum, ignore_index)


def _nll_loss_nd(input, target, weight, enum, ignore_index):
    if input.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.dim()})")
    if input.dim() != 1 and input.shape[0] != (target.shape[0] if target.dim() else 0):
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0] if target.dim() else 0}).")
    _not_differentiable("nll_loss_forward" if input.dim() <= 2 else "nll_loss2d_forward", "weight", weight)
    n_classes = input.shape[1] if input.dim() > 1 else input.shape[0]
    if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} classes or no classes "
                           f"but got weight tensor of shape: {list(weight.shape)}")
    if input.dim() <= 2:
        if target.dim() > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        _check_target_dtype(target)
        return _L.nll_loss(input, target, weight, enum, ignore_index)
    if input.dim() == 4:
        if target.dim() != 3:
            raise RuntimeError("only batches of spatial targets supported (3D tensors) but got targets of "
                               f"dimension: {target.dim()}")
        if target.shape[1:] != input.shape[2:]:
            raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: {list(target.shape)}")
        _check_target_dtype(target)
        return _L.nll_loss(input, target, weight, enum, ignore_index, _L.NllLoss2DBackward0)
    out_size = [input.shape[0]] + list(input.shape[2:])
    if list(target.shape[1:]) != out_size[1:]:
        raise RuntimeError(f"Expected target size {out_size}, got {list(target.shape)}")
    _check_target_dtype(target)
    # PyTorch views other spatial ranks as 4-D, so ViewBackward0 shows around NllLoss2DBackward0.
    n, c = input.shape[0], input.shape[1]
    flat = reshape(input, (n, c, 1, -1))
    flat_target = reshape(target, (n, 1, -1))
    out = _L.nll_loss(flat, flat_target, weight, enum, ignore_index, _L.NllLoss2DBackward0)
    return reshape(out, out_size) if enum == _L.NONE else out


def _check_target_dtype(target):
    if target.dtype not in (dtypes.int64, dtypes.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype.legacy_name[:-6]}")


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """Cross entropy between logits ``input`` and ``target``: ``nll_loss(log_softmax(input, 1), target)``.

    Args:
        input (Tensor): unnormalised scores, shape ``(N, C)``, ``(C)`` or ``(N, C, d1, ...)``.
        target (Tensor): class indices (int64, shape ``(N)``), or class probabilities (float,
            the same shape as ``input``).
        weight (Tensor, optional): a weight per class, shape ``(C)``.
        ignore_index (int, optional): a target value that is skipped. Defaults to -100.
        reduction (str, optional): ``'none'``, ``'mean'`` (default) or ``'sum'``.
        label_smoothing (float, optional): mixes the target with the uniform distribution.

    Example::

        >>> x = torch.tensor([[2., 0., 0.]], requires_grad=True)
        >>> F.cross_entropy(x, torch.tensor([0]))
        tensor(0.2395, grad_fn=<NllLossBackward0>)
    """
    enum = _reduction(size_average, reduce, reduction)
    _expect_tensor(input, "cross_entropy_loss", "input", 1)
    _expect_tensor(target, "cross_entropy_loss", "target", 2)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    if input.shape == target.shape:
        if not target.is_floating_point():
            raise RuntimeError("Expected floating point type for target with class probabilities, got "
                               f"{target.dtype.legacy_name[:-6]}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_probs(input, target, weight, enum, label_smoothing, class_dim)
    log_probs = _SM.log_softmax(input, class_dim)
    nll = _nll_loss_nd(log_probs, target, weight, enum, ignore_index)
    if label_smoothing == 0:
        return nll
    return _smoothed(log_probs, target, weight, enum, ignore_index, label_smoothing, class_dim, nll)


def _class_shape(weight, ndim, class_dim):
    shape = [1] * ndim
    shape[class_dim] = weight.shape[0]
    return reshape(weight, shape)


def _cross_entropy_probs(input, target, weight, enum, label_smoothing, class_dim):
    n_classes = input.shape[class_dim]
    log_probs = _SM.log_softmax(input, class_dim)
    if label_smoothing > 0:
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    terms = log_probs * target
    if weight is not None:
        terms = terms * _class_shape(weight, input.dim(), class_dim)
    if enum == _L.NONE:
        return -_R.sum(terms, class_dim)
    if enum == _L.SUM:
        return -_R.sum(terms)
    if not input.numel():  # PyTorch fills the empty sum with NaN in place before negating it
        return -_R.sum(terms).fill_(float("nan"))
    # PyTorch divides by input.numel() / n_classes in int64, so _saved_other is an int (2, not 2.0)
    return _P.div_scalar(-_R.sum(terms), input.numel() // n_classes)


def _smoothed(log_probs, target, weight, enum, ignore_index, label_smoothing, class_dim, nll):
    n_classes = log_probs.shape[class_dim]
    ignore = target == ignore_index
    if weight is not None:
        smooth = -_R.sum(log_probs * _class_shape(weight, log_probs.dim(), class_dim), class_dim)
    else:
        smooth = -_R.sum(log_probs, class_dim)
    smooth = masked_fill(smooth, ignore, 0.0)
    if enum == _L.MEAN:
        keep = target._data[~ignore._data]
        if weight is not None:
            denom = float(np.sum(weight._data[keep.astype(np.int64)], dtype=weight._data.dtype))
        else:
            denom = float(np.sum(~ignore._data))
        smooth = _R.sum(smooth) / denom
    elif enum == _L.SUM:
        smooth = _R.sum(smooth)
    return nll * (1 - label_smoothing) + smooth * (label_smoothing / n_classes)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """Binary cross entropy of probabilities ``input`` (in [0, 1]) against ``target``.

    ``-(t * log(x) + (1 - t) * log(1 - x))`` with each log clamped at -100, as in PyTorch
    (``grad_fn=<BinaryCrossEntropyBackward0>``).

    Example::

        >>> F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1.]))
        tensor(0.6931)
    """
    enum = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size "
                         f"({input.size()}) is deprecated. Please ensure they have the same size.")
    if weight is not None:
        _not_differentiable("binary_cross_entropy", "weight", weight)
        weight = _expand_weight(weight, target)
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {target.dtype.legacy_name[:-6]} but expected "
                           f"{input.dtype.legacy_name[:-6]}")
    return _L.binary_cross_entropy(input, target, weight, enum)


def _expand_weight(weight, target):
    w, t = tuple(weight.shape), tuple(target.shape)
    for i in range(1, len(w) + 1):
        if i > len(t) or (w[-i] != 1 and w[-i] != t[-i]):
            raise RuntimeError(f"Attempting to broadcast a dimension of length {w[-i]} at {-i}! Mismatching "
                               f"argument at index 1 had {weight.size()}; but expected shape should be "
                               f"broadcastable to {list(t)}")
    return broadcast_to(weight, t) if w != t else weight


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """Binary cross entropy of ``sigmoid(input)`` against ``target``, computed stably from logits.

    Args:
        pos_weight (Tensor, optional): a weight for positive examples, broadcast over the classes.

    Example::

        >>> F.binary_cross_entropy_with_logits(torch.tensor([0.]), torch.tensor([1.]))
        tensor(0.6931)
    """
    enum = _reduction(size_average, reduce, reduction)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    _not_differentiable("binary_cross_entropy_with_logits", "weight", weight)
    _not_differentiable("binary_cross_entropy_with_logits", "pos_weight", pos_weight)
    # The operand order of PyTorch's first failing op decides which size is "tensor a".
    if pos_weight is not None:
        _broadcast_shapes_or_raise(pos_weight, target)
    if weight is not None:
        _broadcast_shapes_or_raise(input, weight)
    return _L.binary_cross_entropy_with_logits(input, target, weight, pos_weight, enum)
