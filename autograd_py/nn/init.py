"""``torch.nn.init``: fill tensors in place (without recording) with standard initial values.

Random fills call the tensor's in-place samplers with the bounds computed by the same float
arithmetic as ``torch/nn/init.py``, so after ``torch.manual_seed`` the values are PyTorch's.
"""
import math
import warnings

from .. import grad_mode
from ..ops.base import _make, np


def _fill(tensor, sample):
    """Writes ``sample(shape)`` into ``tensor`` under no_grad (bumping its version). Returns ``tensor``."""
    if tensor.numel() == 0:
        return tensor
    with grad_mode.no_grad():
        tensor.copy_(_make(np.asarray(sample(tensor.shape)).astype(tensor._data.dtype)))
    return tensor


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fills ``tensor`` with values drawn uniformly from ``[a, b)``."""
    with grad_mode.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fills ``tensor`` with values drawn from ``N(mean, std**2)``."""
    with grad_mode.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor, val):
    """Fills ``tensor`` with ``val``."""
    return _fill(tensor, lambda shape: np.full(tuple(shape), val))


def zeros_(tensor):
    """Fills ``tensor`` with zeros."""
    return constant_(tensor, 0.0)


def ones_(tensor):
    """Fills ``tensor`` with ones."""
    return constant_(tensor, 1.0)


def eye_(tensor):
    """Fills a 2-D ``tensor`` with the identity matrix."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, lambda shape: np.eye(shape[0], shape[1]))


def calculate_gain(nonlinearity, param=None):
    """The recommended scale for a nonlinearity: 1 (linear, sigmoid), 5/3 (tanh), sqrt(2) (relu)...

    Example::

        >>> nn.init.calculate_gain('tanh')
        1.6666666666666667
    """
    linear = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d"]
    if nonlinearity in linear or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = 1
    for s in tensor.shape[2:]:
        receptive *= s
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot uniform: ``U(-a, a)`` with ``a = gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Glorot normal: ``N(0, std**2)`` with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He uniform: ``U(-bound, bound)`` with ``bound = gain * sqrt(3 / fan)``.

    Args:
        a (float): the negative slope of the following leaky_relu (used for the gain).
        mode (str): ``'fan_in'`` (default) keeps forward variances, ``'fan_out'`` backward ones.
        nonlinearity (str): ``'leaky_relu'`` (default) or ``'relu'`` etc., see :func:`calculate_gain`.
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    std = calculate_gain(nonlinearity, a) / math.sqrt(fan)
    bound = math.sqrt(3.0) * std  # in this order, as torch/nn/init.py: the float result matches
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He normal: ``N(0, std**2)`` with ``std = gain / sqrt(fan)``."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(fan), generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Fills ``tensor`` with ``N(mean, std**2)`` samples restricted to ``[a, b]``, drawn as PyTorch
    draws them: redrawing out-of-range values when most of the mass is inside (``p > 0.3``), else
    rejection sampling from ``U(a, b)`` against the normal density.

    Example::

        >>> w = torch.empty(3, 5)
        >>> _ = nn.init.trunc_normal_(w, std=0.02)
    """
    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.", stacklevel=2)
    with grad_mode.no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            _redraw_outside(tensor, mean, std, a, b, generator)
        else:
            _reject_uniform(tensor, mean, std, a, b, generator)
    return tensor


def _scratch(tensor):
    return _make(np.empty(tensor._data.shape, tensor._data.dtype))


def _redraw_outside(tensor, mean, std, a, b, generator):
    cast = tensor._data.dtype.type
    lo, hi = cast(a), cast(b)
    result = tensor.normal_(mean, std, generator=generator)._data
    while True:
        outside = (result < lo) | (result > hi)
        if not outside.any():
            break
        result = np.where(outside, _scratch(tensor).normal_(mean, std, generator=generator)._data, result)
    if result is not tensor._data:
        tensor.copy_(_make(result))


def _reject_uniform(tensor, mean, std, a, b, generator):
    cast = tensor._data.dtype.type
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2

    def log_density(x):  # the tensor-dtype arithmetic of sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(peak)
        return ((x - cast(mean)) / cast(std)) ** 2 * cast(-0.5) - cast(log_peak)

    candidates, accept = _scratch(tensor), _scratch(tensor)
    result = tensor.uniform_(a, b, generator=generator)._data.copy()
    pending = np.log(accept.uniform_(generator=generator)._data) > log_density(result)
    while pending.any():
        drawn = candidates.uniform_(a, b, generator=generator)._data
        result = np.where(pending, drawn, result)
        accepted = np.log(accept.uniform_(generator=generator)._data) > log_density(drawn)
        pending = np.where(pending, accepted, pending)
    tensor.copy_(_make(result))


def orthogonal_(tensor, gain=1, generator=None):
    """Fills ``tensor`` (2-D or more, trailing dims flattened) with a (semi-)orthogonal matrix: the
    ``Q`` of a QR factorisation of standard normal samples, signs fixed by ``R``'s diagonal.

    The samples are PyTorch's; the QR runs in NumPy's LAPACK, so the values agree with PyTorch's to
    rounding (about 1e-7), not bit for bit.
    """
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flat = _make(np.empty((rows, cols), tensor._data.dtype)).normal_(0, 1, generator=generator)._data
    if rows < cols:
        flat = flat.T
    q, r = np.linalg.qr(flat)
    q = q * np.sign(np.diag(r))
    if rows < cols:
        q = q.T
    with grad_mode.no_grad():
        tensor.copy_(_make(q.reshape(tensor._data.shape).astype(tensor._data.dtype)))
        tensor.mul_(gain)
    return tensor
